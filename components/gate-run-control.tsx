"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ message: string }> | null;

// Starts the flow's five gates against this deployment; the run takes a while, so the button
// stays disabled and says so until the outcome arrives.
export function GateRunControl({ flowId, action }: { flowId: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`Run gates for ${flowId}`}>
      <input type="hidden" name="flowId" value={flowId} />
      <Button size="sm" disabled={pending}>
        {pending ? "Running gates…" : "Run gates against this deployment"}
      </Button>
      <StatusLine as="span" className="text-xs" result={result} done={(d) => d.message} />
    </form>
  );
}
