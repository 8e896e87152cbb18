"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ message: string }> | null;

export function FlowControls({ flowId, action }: { flowId: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Release controls for ${flowId}`}>
      <input type="hidden" name="flowId" value={flowId} />
      <label className="grid gap-1 text-xs">
        <span>Reason</span>
        <input name="reason" maxLength={200} className="rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900" />
      </label>
      <label className="grid gap-1 text-xs">
        <span>Canary share (%)</span>
        <input name="canaryPercent" inputMode="numeric" pattern="[0-9]{1,3}" maxLength={3} className="w-16 rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900" />
      </label>
      <button name="op" value="canary" disabled={pending} className="rounded border border-slate-500 px-2 py-1 text-xs">Set canary</button>
      <button name="op" value="request" disabled={pending} className="rounded border border-slate-500 px-2 py-1 text-xs">Request promotion</button>
      <button name="op" value="apply" disabled={pending} className="rounded bg-green-800 px-2 py-1 text-xs text-white">Apply approved promotion</button>
      <button name="op" value="rollback" disabled={pending} className="rounded bg-red-700 px-2 py-1 text-xs text-white">Roll back</button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? result.data.message : `Refused: ${result.error}`) : ""}
      </span>
    </form>
  );
}
