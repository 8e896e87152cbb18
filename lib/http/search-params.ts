import { z } from "zod";
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "./params";

// The one way a page or route reads its URL state: a zod object schema names every parameter it
// understands; this parses a Next.js searchParams object or a URLSearchParams against it. Bad input
// is refused visibly (the caller shows the returned errors in a status line or a 400) and the valid
// parameters still apply, so one wrong value never silently resets the whole view.
//
// What is refused before the schema sees it, for every parameter:
// - a parameter given more than once (a link that says two things is not guessed at);
// - a value longer than MAX_VALUE characters (no schema here needs more);
// - a value with a control character (PostgreSQL text cannot hold NUL; see params.ts).
// Keys are looked up only as the schema's own properties, so "__proto__" or "constructor" in a URL
// never reaches Object.prototype; parameters the schema does not name are left alone (Next.js adds
// its own, such as _rsc). An empty value means "not given": an HTML GET form sends unset fields so.

export const MAX_VALUE = 1000;

export type RawSearchParams = URLSearchParams | Readonly<Record<string, string | string[] | undefined>>;

export type ParsedSearchParams<T> = { ok: true; data: T } | { ok: false; data: T; fieldErrors: Record<string, string[]> };

function valuesOf(raw: RawSearchParams, key: string): string[] {
  if (raw instanceof URLSearchParams) return raw.getAll(key);
  if (!Object.hasOwn(raw, key)) return [];
  const v = raw[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function parseSearchParams<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  raw: RawSearchParams,
): ParsedSearchParams<z.infer<z.ZodObject<Shape>>> {
  const fieldErrors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const input: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of Object.keys(schema.shape)) {
    const values = valuesOf(raw, key).filter((v) => v !== "");
    if (values.length === 0) continue;
    const [value] = values as [string, ...string[]];
    if (values.length > 1) fieldErrors[key] = ["given more than once"];
    else if (value.length > MAX_VALUE) fieldErrors[key] = [`longer than ${MAX_VALUE} characters`];
    else if (!hasNoControlCharacters(value)) fieldErrors[key] = [NO_CONTROL_MESSAGE];
    else input[key] = value;
  }
  let parsed = schema.safeParse(input);
  if (!parsed.success) {
    // Drop each parameter the schema refused and parse what is left, so the others still apply.
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      if (!Object.hasOwn(input, key)) continue;
      (fieldErrors[key] ??= []).push(issue.message);
      delete input[key];
    }
    parsed = schema.safeParse(input);
  }
  // Defaults alone always parse for a well-formed page schema; if they do not, that is a bug in the
  // schema, and it throws rather than rendering a view from nothing.
  const data = parsed.success ? parsed.data : schema.parse({});
  const errors = { ...fieldErrors };
  return Object.keys(errors).length === 0 ? { ok: true, data } : { ok: false, data, fieldErrors: errors };
}

/** "state: Invalid option…; after: …" for a status line; names parameters, never echoes a value. */
export function describeRefusal(fieldErrors: Record<string, string[]>): string {
  return Object.entries(fieldErrors)
    .map(([k, msgs]) => `${k}: ${msgs.join(", ")}`)
    .join("; ");
}
