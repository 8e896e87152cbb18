"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ ended: number }> | null;

/** One operator's "end every session" control: a reason is required; the server checks the role. */
export function EndSessionsForm({ subject, action }: { subject: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`End the sessions of ${subject}`}>
      <input type="hidden" name="subject" value={subject} />
      <label className="text-xs">
        <span className="sr-only">Reason for ending the sessions of {subject}</span>
        <Input name="reason" required minLength={3} maxLength={200} placeholder="Reason" />
      </label>
      <Button tone="dangerOutline" size="xs" disabled={pending}>
        End sessions
      </Button>
      <StatusLine as="span" className="text-xs" testId="end-sessions-result" result={result} done={(d) => `Ended ${d.ended} session(s).`} />
    </form>
  );
}
