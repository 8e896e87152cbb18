"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ message: string }> | null;

// One decision for every client of a workflow: rolls back each of its flows (and creates a
// rolled-back flow for any mapped profile that has none yet).
export function WorkflowRollbackForm({
  workflow,
  action,
}: {
  workflow: string;
  action: (prev: Result, form: FormData) => Promise<Result>;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Roll back ${workflow} for every client`}>
      <input type="hidden" name="workflow" value={workflow} />
      <Field label="Reason" size="xs">
        <Input size="sm" name="reason" required minLength={3} maxLength={200} />
      </Field>
      <Button tone="danger" size="sm" disabled={pending}>
        Roll back for every client
      </Button>
      <StatusLine as="span" className="text-xs" result={result} done={(d) => d.message} />
    </form>
  );
}
