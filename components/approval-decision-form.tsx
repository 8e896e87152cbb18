"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ state: string }> | null;

export function ApprovalDecisionForm({ id, action }: { id: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Decide ${id}`}>
      <input type="hidden" name="id" value={id} />
      <label className="grid gap-1 text-sm">
        <span>Reason</span>
        <input name="reason" required minLength={3} maxLength={200} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
      </label>
      <button name="decision" value="approve" disabled={pending || result?.ok} className="rounded bg-green-800 px-3 py-1 text-white">Approve</button>
      <button name="decision" value="reject" disabled={pending || result?.ok} className="rounded border border-slate-500 px-3 py-1">Reject</button>
      <span role="status" aria-live="polite" className={result && !result.ok ? "text-red-800 dark:text-red-300" : ""}>
        {result ? (result.ok ? `Done: ${result.data.state}.` : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
