"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { ConfirmStep } from "./ui/confirm-step";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { Select } from "./ui/select";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ state: string; scope: string }> | null;

export interface Impact {
  scope: string;
  urlHandlesRevoked: number;
  formRequestsRevoked: number;
}

export function KillSwitchForm({
  action,
  canChange,
  impact,
}: {
  action: (prev: Result, form: FormData) => Promise<Result>;
  canChange: boolean;
  impact: Impact[];
}) {
  const [result, formAction, pending] = useActionState(action, null);
  const [scope, setScope] = useState("global");
  const what = impact.find((i) => i.scope === scope);
  return (
    <form action={formAction} className="mt-3 grid max-w-xl gap-3" aria-describedby="kill-switch-help">
      <p id="kill-switch-help" className="text-sm text-slate-700 dark:text-slate-300">
        Engaging blocks new elicitation in the chosen scope at once. Releasing needs a second operator to confirm.
        {canChange ? "" : " Your role cannot change the kill switch."}
      </p>
      <Field label="Scope" size="base" strong>
        <Select
          size="lg"
          name="scope"
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          options={[
            { value: "global", label: "Everything (global)" },
            { value: "mode:form", label: "Form mode" },
            { value: "mode:url", label: "URL mode" },
            ...impact
              .filter((i) => i.scope.startsWith("workflow:"))
              .map((i) => ({ value: i.scope, label: `Workflow ${i.scope.slice("workflow:".length)} (every client)` })),
          ]}
        />
      </Field>
      <Field label="Reason (required)" size="base" strong>
        <Input size="lg" name="reason" required minLength={3} maxLength={200} />
      </Field>
      <Field label="Release automatically after (minutes, optional)" size="base" strong>
        <Input size="lg" name="expiresInMinutes" type="number" min={1} />
      </Field>
      {/* Keyed on the scope: choosing another scope asks again. */}
      <ConfirmStep
        key={scope}
        ask="Engage kill switch"
        confirm="Confirm: engage kill switch"
        name="action"
        value="engage"
        pending={pending}
        testId="kill-switch-confirm"
        details={
          <>
            <p className="font-semibold">Engaging {scope} will:</p>
            <ul className="ml-5 list-disc">
              <li>block every new elicitation in this scope at once, on every instance;</li>
              <li>revoke {what?.urlHandlesRevoked ?? 0} unfinished URL-mode handle(s) now (their links stop working);</li>
              <li>revoke {what?.formRequestsRevoked ?? 0} form request(s) in flight now (an answer that arrives after this is refused);</li>
              <li>send clients the manual setup path or a refusal that names your reason.</li>
            </ul>
          </>
        }
      >
        <Button size="lg" name="action" value="release" disabled={pending}>
          Release (needs two people)
        </Button>
      </ConfirmStep>
      <StatusLine testId="kill-switch-result" result={result} done={(d) => `Done: ${d.scope} ${d.state.replace("_", " ")}.`} />
    </form>
  );
}
