"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ message: string }> | null;

// Starts the flow's five gates against this deployment; the run takes a while, so the button
// stays disabled and says so until the outcome arrives.
export function GateRunControl({ flowId, action }: { flowId: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`Run gates for ${flowId}`}>
      <input type="hidden" name="flowId" value={flowId} />
      <button disabled={pending} className="rounded border border-slate-500 px-2 py-1 text-xs">{pending ? "Running gates…" : "Run gates against this deployment"}</button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? result.data.message : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
