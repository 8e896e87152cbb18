// The console's add-upstream form, as flat FormData, turned into the registry's input shape (the
// same zod schema then judges it). Lists are typed separated by commas or whitespace.
const list = (v: FormDataEntryValue | null) => (typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : []);
const text = (v: FormDataEntryValue | null) => (typeof v === "string" && v !== "" ? v : undefined);

export function upstreamFromForm(form: FormData): Record<string, unknown> {
  const kind = text(form.get("authKind")) ?? "none";
  const auth =
    kind === "header"
      ? {
          kind,
          header: text(form.get("header")),
          secretEnv: text(form.get("secretEnv")),
          ...(text(form.get("prefix")) ? { prefix: text(form.get("prefix")) } : {}),
        }
      : { kind };
  return {
    id: text(form.get("id")),
    displayName: text(form.get("displayName")),
    url: text(form.get("url")),
    auth,
    tenants: list(form.get("tenants")),
    exposedTools: list(form.get("exposedTools")),
    urlOrigins: list(form.get("urlOrigins")),
  };
}
