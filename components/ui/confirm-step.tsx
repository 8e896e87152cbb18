"use client";

import { useState, type ReactNode } from "react";
import { buttonClass, type ButtonTone } from "./button";

// Asking is not doing: the first button only shows what will happen; a second, different button
// submits. The parent remounts this (a React key) when what is being confirmed changes, so a
// confirmation never carries over to another choice.
export function ConfirmStep({
  ask,
  confirm,
  name,
  value,
  tone = "danger",
  pending = false,
  details,
  testId,
  children,
}: {
  ask: string;
  confirm: string;
  name: string;
  value: string;
  tone?: ButtonTone;
  pending?: boolean;
  details: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {confirming ? (
        <div role="alert" className="rounded border border-red-800 p-3 text-sm" data-testid={testId}>
          {details}
        </div>
      ) : null}
      <div className="flex gap-3">
        {/* Distinct keys: React must mount a new element. Reusing one <button> and turning it into a
            submit button during the click would let that same click submit the form, skipping the
            confirmation. */}
        {confirming ? (
          <button key="confirm" name={name} value={value} disabled={pending} className={buttonClass(tone, "lg")}>
            {confirm}
          </button>
        ) : (
          <button
            key="ask"
            type="button"
            onClick={(e) => {
              e.preventDefault();
              setConfirming(true);
            }}
            className={buttonClass(tone, "lg")}
          >
            {ask}
          </button>
        )}
        {children}
      </div>
    </>
  );
}
