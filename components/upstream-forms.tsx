"use client";

import { useActionState, useState } from "react";
import type { InputHTMLAttributes } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { Select } from "./ui/select";
import { StatusLine } from "./ui/status-line";

type Result = ActionResult<{ id: string }> | null;

function TextField({
  name,
  label,
  value,
  set,
  ...rest
}: { name: string; label: string; value: string; set: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "size">) {
  return (
    <Field label={label} size="xs">
      <Input size="sm" name={name} value={value} onChange={(e) => set(e.target.value)} {...rest} />
    </Field>
  );
}

export function AddUpstreamForm({ action }: { action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  // Controlled, so a refused submission keeps what was typed.
  const [v, setV] = useState({
    id: "",
    displayName: "",
    url: "",
    tenants: "",
    exposedTools: "*",
    urlOrigins: "",
    authKind: "none",
    header: "Authorization",
    secretEnv: "",
    prefix: "Bearer ",
  });
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label="Add an upstream MCP server">
      <TextField
        name="id"
        label="Id (letters, digits)"
        value={v.id}
        set={set("id")}
        required
        maxLength={24}
        pattern="[a-z][a-z0-9]{1,23}"
      />
      <TextField name="displayName" label="Display name" value={v.displayName} set={set("displayName")} required maxLength={100} />
      <TextField name="url" label="Streamable HTTP URL" value={v.url} set={set("url")} required maxLength={2048} type="url" />
      <TextField name="tenants" label="Tenants (comma-separated)" value={v.tenants} set={set("tenants")} required />
      <TextField name="exposedTools" label="Exposed tools (* for all)" value={v.exposedTools} set={set("exposedTools")} required />
      <TextField name="urlOrigins" label="URL-mode origins (https://...)" value={v.urlOrigins} set={set("urlOrigins")} />
      <Field label="Gateway credential" size="xs">
        <Select
          size="sm"
          name="authKind"
          value={v.authKind}
          onChange={(e) => set("authKind")(e.target.value)}
          options={[
            { value: "none", label: "none" },
            { value: "header", label: "header from a configured secret" },
          ]}
        />
      </Field>
      {v.authKind === "header" ? (
        <>
          <TextField name="header" label="Header" value={v.header} set={set("header")} required />
          <TextField name="secretEnv" label="Variable (UPSTREAM_SECRET_...)" value={v.secretEnv} set={set("secretEnv")} required />
          <TextField name="prefix" label="Prefix" value={v.prefix} set={set("prefix")} />
        </>
      ) : null}
      <Button tone="primary" disabled={pending} className="text-sm">
        Add upstream
      </Button>
      <StatusLine as="span" className="text-xs" result={result} done={(d) => `Added ${d.id}.`} />
    </form>
  );
}

export function RemoveUpstreamForm({ id, action }: { id: string; action: (prev: Result, form: FormData) => Promise<Result> }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="inline" aria-label={`Remove upstream ${id}`}>
      <input type="hidden" name="id" value={id} />
      <Button size="xs" disabled={pending}>
        Remove
      </Button>
      <StatusLine as="span" className="ml-2 text-xs" result={result} />
    </form>
  );
}
