"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";

type SetResult = ActionResult<{ clientId: string; profileId: string }> | null;
type RemoveResult = ActionResult<{ clientId: string }> | null;

export function SetClientProfileForm({ action }: { action: (prev: SetResult, form: FormData) => Promise<SetResult> }) {
  const [result, formAction, pending] = useActionState(action, null);
  // Controlled, so a refused submission keeps what was typed.
  const [clientId, setClientId] = useState("");
  const [profileId, setProfileId] = useState("");
  const [displayName, setDisplayName] = useState("");
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label="Map a client id to a profile">
      <Field label="OAuth client id" size="xs">
        <Input
          size="sm"
          className="font-mono"
          name="clientId"
          required
          maxLength={200}
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
        />
      </Field>
      <Field label="Profile id" size="xs">
        <Input
          size="sm"
          className="font-mono"
          name="profileId"
          required
          maxLength={63}
          pattern="[a-z0-9][a-z0-9\-]{0,62}"
          value={profileId}
          onChange={(e) => setProfileId(e.target.value)}
        />
      </Field>
      <Field label="Display name" size="xs">
        <Input size="sm" name="displayName" required maxLength={100} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      </Field>
      <Button tone="primary" disabled={pending} className="text-sm">
        Save mapping
      </Button>
      {/* "bare": the profile rules' messages name their field themselves. */}
      <StatusLine
        as="span"
        className="text-xs"
        fieldErrors="bare"
        result={result}
        done={(d) => `${d.clientId} now belongs to ${d.profileId}.`}
      />
    </form>
  );
}

export function RemoveClientProfileForm({
  clientId,
  action,
}: {
  clientId: string;
  action: (prev: RemoveResult, form: FormData) => Promise<RemoveResult>;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Unmap ${clientId}`}>
      <input type="hidden" name="clientId" value={clientId} />
      <Button size="xs" disabled={pending}>
        Unmap
      </Button>
      <StatusLine as="span" className="ml-2 text-xs" result={result} />
    </form>
  );
}
