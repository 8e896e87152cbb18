"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ message: string }> | null;

// One decision for every client of a workflow: rolls back each of its flows (and creates a
// rolled-back flow for any mapped profile that has none yet).
export function WorkflowRollbackForm({ workflow, action }: { workflow: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Roll back ${workflow} for every client`}>
      <input type="hidden" name="workflow" value={workflow} />
      <label className="grid gap-1 text-xs">
        <span>Reason</span>
        <input name="reason" required minLength={3} maxLength={200} className="rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900" />
      </label>
      <button disabled={pending} className="rounded bg-red-700 px-2 py-1 text-xs text-white">Roll back for every client</button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? result.data.message : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
