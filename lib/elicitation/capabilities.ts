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

/** The `elicitation` capability exactly as the client declared it, bounded (declaredElicitation). */
export type DeclaredElicitation = Record<string, unknown>;

// A client writes its own capabilities: an honest one declares a few empty objects (`{}`,
// `{ form: {}, url: {} }`), a junk one anything at all. What a record keeps is only the
// `elicitation` object, and only while its JSON is at most this many bytes; a bigger one is dropped
// (stored as null, "none declared") rather than cut, since a cut object would claim a shape the
// client never declared. 512 bytes is many times any real declaration.
export const DECLARED_ELICITATION_MAX_BYTES = 512;

/**
 * The client's `elicitation` capability as stored on its records: the raw object (`{}` stays `{}`,
 * distinct from `{ form: {} }`), or null when none was declared, it is not an object, or it is too big.
 */
export function declaredElicitation(capabilities: Record<string, unknown> | undefined): DeclaredElicitation | null {
  const e = capabilities?.elicitation;
  if (e === undefined || e === null || typeof e !== "object" || Array.isArray(e)) return null;
  let json: string;
  try {
    json = JSON.stringify(e);
  } catch {
    return null; // not JSON (a cycle, a BigInt): not a declaration anyone sent over the wire
  }
  if (Buffer.byteLength(json, "utf8") > DECLARED_ELICITATION_MAX_BYTES) return null;
  // A copy through JSON: a plain object with no prototype tricks and nothing that is not JSON.
  return JSON.parse(json) as DeclaredElicitation;
}
