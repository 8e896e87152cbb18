"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type SetResult = ActionResult<{ clientId: string; profileId: string }> | null;
type RemoveResult = ActionResult<{ clientId: string }> | null;

export function SetClientProfileForm({ action }: { action: (prev: SetResult, form: FormData) => Promise<SetResult> }) {
  const [result, formAction, pending] = useActionState(action, null);
  // Controlled, so a refused submission keeps what was typed.
  const [clientId, setClientId] = useState("");
  const [profileId, setProfileId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const field = "rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900";
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label="Map a client id to a profile">
      <label className="grid gap-1 text-xs">
        <span>OAuth client id</span>
        <input name="clientId" required maxLength={200} value={clientId} onChange={(e) => setClientId(e.target.value)} className={`${field} font-mono`} />
      </label>
      <label className="grid gap-1 text-xs">
        <span>Profile id</span>
        <input name="profileId" required maxLength={63} pattern="[a-z0-9][a-z0-9\-]{0,62}" value={profileId} onChange={(e) => setProfileId(e.target.value)} className={`${field} font-mono`} />
      </label>
      <label className="grid gap-1 text-xs">
        <span>Display name</span>
        <input name="displayName" required maxLength={100} value={displayName} onChange={(e) => setDisplayName(e.target.value)} className={field} />
      </label>
      <button disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white">Save mapping</button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? `${result.data.clientId} now belongs to ${result.data.profileId}.` : `Refused: ${[result.error, ...Object.values(result.fieldErrors ?? {}).flat()].join(": ")}`) : ""}
      </span>
    </form>
  );
}

export function RemoveClientProfileForm({ clientId, action }: { clientId: string; action: (prev: RemoveResult, form: FormData) => Promise<RemoveResult> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Unmap ${clientId}`}>
      <input type="hidden" name="clientId" value={clientId} />
      <button disabled={pending} className="rounded border border-slate-500 px-2 py-0.5 text-xs">Unmap</button>
      <span role="status" aria-live="polite" className="ml-2 text-xs">{result && !result.ok ? `Refused: ${result.error}` : ""}</span>
    </form>
  );
}
