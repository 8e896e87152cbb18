"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";

type Result = ActionResult<{ id: string }> | null;
const field = "rounded border border-slate-400 bg-white p-1 text-sm dark:bg-slate-900";

function Field({ name, label, value, set, ...rest }: { name: string; label: string; value: string; set: (v: string) => void } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="grid gap-1 text-xs">
      <span>{label}</span>
      <input name={name} value={value} onChange={(e) => set(e.target.value)} className={field} {...rest} />
    </label>
  );
}

export function AddUpstreamForm({ action }: { action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  // Controlled, so a refused submission keeps what was typed.
  const [v, setV] = useState({ id: "", displayName: "", url: "", tenants: "", exposedTools: "*", urlOrigins: "", authKind: "none", header: "Authorization", secretEnv: "", prefix: "Bearer " });
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label="Add an upstream MCP server">
      <Field name="id" label="Id (letters, digits)" value={v.id} set={set("id")} required maxLength={24} pattern="[a-z][a-z0-9]{1,23}" />
      <Field name="displayName" label="Display name" value={v.displayName} set={set("displayName")} required maxLength={100} />
      <Field name="url" label="Streamable HTTP URL" value={v.url} set={set("url")} required maxLength={2048} type="url" />
      <Field name="tenants" label="Tenants (comma-separated)" value={v.tenants} set={set("tenants")} required />
      <Field name="exposedTools" label="Exposed tools (* for all)" value={v.exposedTools} set={set("exposedTools")} required />
      <Field name="urlOrigins" label="URL-mode origins (https://...)" value={v.urlOrigins} set={set("urlOrigins")} />
      <label className="grid gap-1 text-xs">
        <span>Gateway credential</span>
        <select name="authKind" value={v.authKind} onChange={(e) => set("authKind")(e.target.value)} className={field}>
          <option value="none">none</option>
          <option value="header">header from a configured secret</option>
        </select>
      </label>
      {v.authKind === "header" ? (
        <>
          <Field name="header" label="Header" value={v.header} set={set("header")} required />
          <Field name="secretEnv" label="Variable (UPSTREAM_SECRET_...)" value={v.secretEnv} set={set("secretEnv")} required />
          <Field name="prefix" label="Prefix" value={v.prefix} set={set("prefix")} />
        </>
      ) : null}
      <button disabled={pending} className="rounded bg-blue-700 px-3 py-1 text-sm text-white">Add upstream</button>
      <span role="status" aria-live="polite" className={`text-xs ${result && !result.ok ? "text-red-800 dark:text-red-300" : ""}`}>
        {result ? (result.ok ? `Added ${result.data.id}.` : `Refused: ${[result.error, ...Object.entries(result.fieldErrors ?? {}).map(([k, e]) => `${k}: ${e.join(", ")}`)].join("; ")}`) : ""}
      </span>
    </form>
  );
}

export function RemoveUpstreamForm({ id, action }: { id: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Remove upstream ${id}`}>
      <input type="hidden" name="id" value={id} />
      <button disabled={pending} className="rounded border border-slate-500 px-2 py-0.5 text-xs">Remove</button>
      <span role="status" aria-live="polite" className="ml-2 text-xs">{result && !result.ok ? `Refused: ${result.error}` : ""}</span>
    </form>
  );
}
