"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ state: string }> | null;

export function ApprovalDecisionForm({ id, action }: { id: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Decide ${id}`}>
      <input type="hidden" name="id" value={id} />
      <Field label="Reason">
        <Input name="reason" required minLength={3} maxLength={200} />
      </Field>
      <Button tone="success" name="decision" value="approve" disabled={pending || result?.ok}>
        Approve
      </Button>
      <Button name="decision" value="reject" disabled={pending || result?.ok}>
        Reject
      </Button>
      <StatusLine as="span" result={result} done={(d) => `Done: ${d.state}.`} />
    </form>
  );
}
