"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ ended: number }> | null;

/** One operator's "end every session" control: a reason is required; the server checks the role. */
export function EndSessionsForm({ subject, action }: { subject: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`End the sessions of ${subject}`}>
      <input type="hidden" name="subject" value={subject} />
      <label className="text-xs">
        <span className="sr-only">Reason for ending the sessions of {subject}</span>
        <input name="reason" required minLength={3} maxLength={200} placeholder="Reason" className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
      </label>
      <button disabled={pending} className="rounded border border-red-700 px-2 py-0.5 text-xs text-red-800 dark:text-red-300">End sessions</button>
      <span role="status" aria-live="polite" className="text-xs" data-testid="end-sessions-result">
        {result ? (result.ok ? `Ended ${result.data.ended} session(s).` : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
