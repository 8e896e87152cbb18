"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ message: string }> | null;

export function FlowControls({ flowId, action }: { flowId: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Release controls for ${flowId}`}>
      <input type="hidden" name="flowId" value={flowId} />
      <Field label="Reason" size="xs">
        <Input size="sm" name="reason" maxLength={200} />
      </Field>
      <Field label="Canary share (%)" size="xs">
        <Input size="sm" name="canaryPercent" inputMode="numeric" pattern="[0-9]{1,3}" maxLength={3} className="w-16" />
      </Field>
      <Button size="sm" name="op" value="canary" disabled={pending}>
        Set canary
      </Button>
      <Button size="sm" name="op" value="request" disabled={pending}>
        Request promotion
      </Button>
      <Button tone="success" size="sm" name="op" value="apply" disabled={pending}>
        Apply approved promotion
      </Button>
      <Button tone="danger" size="sm" name="op" value="rollback" disabled={pending}>
        Roll back
      </Button>
      <StatusLine as="span" className="text-xs" result={result} done={(d) => d.message} />
    </form>
  );
}
