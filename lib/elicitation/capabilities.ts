// The client's capability manifest, as declared at initialize. Never inferred from the client's
// name: a product name proves nothing about another deployment of it.
export interface DeclaredModes {
  form: boolean;
  url: boolean;
}

export function declaredModes(capabilities: Record<string, unknown> | undefined): DeclaredModes {
  const e = capabilities?.elicitation;
  if (e === undefined || e === null || typeof e !== "object" || Array.isArray(e)) return { form: false, url: false };
  // `elicitation: {}` means form only (backwards compatibility with 2025-06-18); `{ url: {} }`
  // alone does NOT imply form.
  if (Object.keys(e).length === 0) return { form: true, url: false };
  return { form: "form" in e, url: "url" in e };
}
