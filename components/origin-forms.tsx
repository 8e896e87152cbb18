"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { CheckField, Field } from "./ui/field";
import { Input, TextArea } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type AddResult = ActionResult<{ origin: string; redirectUris: string[] }> | null;
type DisableResult = ActionResult<{ origin: string }> | null;

export function AddOriginForm({ action }: { action: (prev: AddResult, form: FormData) => Promise<AddResult> }) {
  const [result, formAction, pending] = useActionState(action, null);
  // Controlled, so a refused submission keeps what was typed (React resets uncontrolled forms).
  const [uris, setUris] = useState("");
  const [note, setNote] = useState("");
  const [accept, setAccept] = useState(false);
  return (
    <form action={formAction} className="grid max-w-xl gap-3" aria-label="Add or update an origin">
      <Field label="Exact redirect URIs (one per line, all on one origin)">
        <TextArea
          size="sm"
          className="font-mono"
          name="redirectUris"
          required
          rows={3}
          value={uris}
          onChange={(e) => setUris(e.target.value)}
        />
      </Field>
      <Field label="Note (optional)">
        <Input name="note" maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
      </Field>
      <CheckField label="I have checked the host and accept the URL check's warnings">
        <input type="checkbox" name="acceptWarnings" checked={accept} onChange={(e) => setAccept(e.target.checked)} />
      </CheckField>
      <Button tone="primary" disabled={pending} className="w-fit">
        Add to allowlist
      </Button>
      <StatusLine
        testId="origin-result"
        result={result}
        done={(d) => `Allowed ${d.origin} with ${d.redirectUris.length} redirect URI(s).`}
      />
    </form>
  );
}

export function DisableOriginForm({
  origin,
  action,
}: {
  origin: string;
  action: (prev: DisableResult, form: FormData) => Promise<DisableResult>;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Remove ${origin}`}>
      <input type="hidden" name="origin" value={origin} />
      <Button size="xs" disabled={pending}>
        Remove
      </Button>
      <StatusLine as="span" className="ml-2 text-xs" result={result} />
    </form>
  );
}
