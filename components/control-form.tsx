"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import type { ConsoleControlForm } from "@/lib/controls/registry";

type Result = ActionResult<unknown> | null;

// A declared control's form for one row (lib/controls/control.ts, `form`): its fields, the row's
// id as a hidden field, and the outcome next to it. What it may do is decided on the server.
export function ControlForm({
  spec,
  rowId,
  action,
}: {
  spec: ConsoleControlForm;
  rowId: string;
  action: (prev: Result, form: FormData) => Promise<Result>;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  const message = (data: unknown) =>
    data && typeof data === "object" && "message" in data && typeof data.message === "string" ? data.message : "Done";
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`${spec.title}: ${rowId}`} data-control={spec.name}>
      <input type="hidden" name={spec.rowField} value={rowId} />
      {spec.fields.map((f) => (
        <label key={f.name} className="grid gap-1 text-xs">
          <span>{f.label}</span>
          <input
            name={f.name}
            type={f.kind}
            required
            min={f.min}
            max={f.max}
            minLength={f.minLength}
            maxLength={f.maxLength}
            className="rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900"
          />
        </label>
      ))}
      <button disabled={pending} className="rounded bg-slate-800 px-2 py-1 text-xs text-white">
        {spec.submit}
      </button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? message(result.data) : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
