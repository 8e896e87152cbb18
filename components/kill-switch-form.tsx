"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ state: string; scope: string }> | null;

export interface Impact {
  scope: string;
  urlHandlesRevoked: number;
  formRequestsRevoked: number;
}

export function KillSwitchForm({ action, canChange, impact }: { action: (prev: Result, form: FormData) => Promise<Result>; canChange: boolean; impact: Impact[] }) {
  const [result, formAction, pending] = useActionState(action, null);
  const [scope, setScope] = useState("global");
  const [confirming, setConfirming] = useState(false);
  const what = impact.find((i) => i.scope === scope);
  return (
    <form action={formAction} className="mt-3 grid max-w-xl gap-3" aria-describedby="kill-switch-help">
      <p id="kill-switch-help" className="text-sm text-slate-700 dark:text-slate-300">
        Engaging blocks new elicitation in the chosen scope at once. Releasing needs a second operator to confirm.
        {canChange ? "" : " Your role cannot change the kill switch."}
      </p>
      <label className="grid gap-1">
        <span className="font-medium">Scope</span>
        <select name="scope" className="rounded border border-slate-400 bg-white p-2 dark:bg-slate-900" value={scope} onChange={(e) => (setScope(e.target.value), setConfirming(false))}>
          <option value="global">Everything (global)</option>
          <option value="mode:form">Form mode</option>
          <option value="mode:url">URL mode</option>
          {impact.filter((i) => i.scope.startsWith("workflow:")).map((i) => (
            <option key={i.scope} value={i.scope}>
              Workflow {i.scope.slice("workflow:".length)} (every client)
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1">
        <span className="font-medium">Reason (required)</span>
        <input name="reason" required minLength={3} maxLength={200} className="rounded border border-slate-400 bg-white p-2 dark:bg-slate-900" />
      </label>
      <label className="grid gap-1">
        <span className="font-medium">Release automatically after (minutes, optional)</span>
        <input name="expiresInMinutes" type="number" min={1} className="rounded border border-slate-400 bg-white p-2 dark:bg-slate-900" />
      </label>
      {confirming ? (
        <div role="alert" className="rounded border border-red-800 p-3 text-sm" data-testid="kill-switch-confirm">
          <p className="font-semibold">Engaging {scope} will:</p>
          <ul className="ml-5 list-disc">
            <li>block every new elicitation in this scope at once, on every instance;</li>
            <li>revoke {what?.urlHandlesRevoked ?? 0} unfinished URL-mode handle(s) now (their links stop working);</li>
            <li>revoke {what?.formRequestsRevoked ?? 0} form request(s) in flight now (an answer that arrives after this is refused);</li>
            <li>send clients the manual setup path or a refusal that names your reason.</li>
          </ul>
        </div>
      ) : null}
      <div className="flex gap-3">
        {/* Distinct keys: React must mount a new element. Reusing one <button> and turning it into a
            submit button during the click would let that same click submit the form, skipping the
            confirmation. */}
        {confirming ? (
          <button key="confirm" name="action" value="engage" disabled={pending} className="rounded bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:opacity-60">
            Confirm: engage kill switch
          </button>
        ) : (
          <button
            key="ask"
            type="button"
            onClick={(e) => {
              e.preventDefault();
              setConfirming(true);
            }}
            className="rounded bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800"
          >
            Engage kill switch
          </button>
        )}
        <button name="action" value="release" disabled={pending} className="rounded border border-slate-500 px-4 py-2 hover:bg-slate-100 disabled:opacity-60 dark:hover:bg-slate-800">
          Release (needs two people)
        </button>
      </div>
      <p role="status" aria-live="polite" data-testid="kill-switch-result" className={result && !result.ok ? "text-red-800 dark:text-red-300" : ""}>
        {result ? (result.ok ? `Done: ${result.data.scope} ${result.data.state.replace("_", " ")}.` : `Refused: ${result.error}`) : ""}
      </p>
    </form>
  );
}
