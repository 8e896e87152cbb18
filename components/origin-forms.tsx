"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

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
      <label className="grid gap-1 text-sm">
        <span>Exact redirect URIs (one per line, all on one origin)</span>
        <textarea name="redirectUris" required rows={3} value={uris} onChange={(e) => setUris(e.target.value)} className="rounded border border-slate-400 bg-white p-1 font-mono text-sm dark:bg-slate-900" />
      </label>
      <label className="grid gap-1 text-sm">
        <span>Note (optional)</span>
        <input name="note" maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="acceptWarnings" checked={accept} onChange={(e) => setAccept(e.target.checked)} /> I have checked the host and accept the URL check&apos;s warnings
      </label>
      <button disabled={pending} className="w-fit rounded bg-blue-700 px-3 py-1 text-white">Add to allowlist</button>
      <p role="status" aria-live="polite" data-testid="origin-result" className={result && !result.ok ? "text-red-800 dark:text-red-300" : ""}>
        {result ? (result.ok ? `Allowed ${result.data.origin} with ${result.data.redirectUris.length} redirect URI(s).` : `Refused: ${result.error}`) : ""}
      </p>
    </form>
  );
}

export function DisableOriginForm({ origin, action }: { origin: string; action: (prev: DisableResult, form: FormData) => Promise<DisableResult> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Remove ${origin}`}>
      <input type="hidden" name="origin" value={origin} />
      <button disabled={pending} className="rounded border border-slate-500 px-2 py-0.5 text-xs">Remove</button>
      <span role="status" aria-live="polite" className="ml-2 text-xs">{result && !result.ok ? `Refused: ${result.error}` : ""}</span>
    </form>
  );
}
