// The form-request linter: run on every form request before it leaves the server, and by server
// authors' CI through `ctl lint-schema FILE`. Block means the request must never reach a client as
// a form; the reasons say what to change (field names, keywords, never a value).
// The same normalisation as the answer scan (NFKC, invisible characters removed, look-alike letters
// folded in mixed-script words), so "p\u0430ssword" or "Pass\u200bword" asks for a password too.
import { normaliseForScan } from "@/lib/elicitation/credential-normalise";
import { checkStructure, isFreeText } from "./structure";
import { findSecretTerms, type SecretKind } from "./secret-terms";
import type { LintCode, LintReason, LintVerdict } from "./types";
import { containsUrl } from "./urls";

export type { LintReason, LintVerdict } from "./types";

/** The longest message a person is asked to read (a form's or a link's); a longer one is a flood, not a question. */
export const MAX_MESSAGE_CHARS = 2000;

const CODE_FOR: Record<SecretKind, LintCode> = {
  credential: "secret_requested",
  payment: "payment_requested",
  one_time_code: "one_time_code_requested",
};

type Def = Record<string, unknown>;

function labelsOf(def: Def): string[] {
  const out: string[] = [];
  const push = (v: unknown) => typeof v === "string" && out.push(v);
  for (const v of Array.isArray(def.enum) ? def.enum : []) push(v);
  for (const v of Array.isArray(def.enumNames) ? def.enumNames : []) push(v);
  const consts = [
    ...(Array.isArray(def.oneOf) ? def.oneOf : []),
    ...(def.items && Array.isArray((def.items as Def).anyOf) ? ((def.items as Def).anyOf as unknown[]) : []),
  ];
  for (const c of consts) {
    push((c as Def)?.const);
    push((c as Def)?.title);
  }
  for (const v of def.items && Array.isArray((def.items as Def).enum) ? ((def.items as Def).enum as unknown[]) : []) push(v);
  return out;
}

function textsOf(def: Def): string[] {
  const out = [def.title, def.description, typeof def.default === "string" ? def.default : undefined].filter(
    (v): v is string => typeof v === "string",
  );
  if (Array.isArray(def.default)) out.push(...def.default.filter((v): v is string => typeof v === "string"));
  return [...out, ...labelsOf(def)];
}

export function lintFormRequest(request: unknown): LintVerdict {
  const reasons: LintReason[] = checkStructure(request);
  const req = request as { message?: unknown; requestedSchema?: { properties?: unknown } };
  const props =
    req &&
    typeof req === "object" &&
    req.requestedSchema &&
    typeof req.requestedSchema.properties === "object" &&
    req.requestedSchema.properties !== null
      ? (req.requestedSchema.properties as Record<string, unknown>)
      : {};
  const message = typeof req?.message === "string" ? req.message : "";

  if (containsUrl(message))
    reasons.push({ code: "url_in_text", field: null, detail: "the message contains a link; forms must not carry clickable URLs" });
  if (message.length > MAX_MESSAGE_CHARS) reasons.push(tooLong());
  const freeText: string[] = [];
  const labels: string[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (typeof raw !== "object" || raw === null) continue;
    const def = raw as Def;
    if (textsOf(def).some(containsUrl))
      reasons.push({ code: "url_in_text", field: name, detail: "a title, description, default or option contains a link" });
    labels.push(...labelsOf(def));
    if (def.format === "password") reasons.push({ code: "secret_requested", field: name, detail: 'format "password" asks for a secret' });
    if (!isFreeText(def)) continue;
    freeText.push(name);
    const hits = findSecretTerms(normaliseForScan([name, def.title, def.description].filter((v) => typeof v === "string").join(" \n ")));
    for (const hit of dedupe(hits))
      reasons.push({
        code: CODE_FOR[hit.kind],
        field: name,
        detail: `asks for a ${hit.kind.replace(/_/g, "-")} ("${hit.term}"); use URL mode`,
      });
  }
  // The message (and option labels) can ask for the secret while the field name looks innocent.
  if (freeText.length > 0) {
    const hits = dedupe(findSecretTerms(normaliseForScan([message, ...labels].join(" \n "))));
    const already = new Set(reasons.filter((r) => r.field !== null).map((r) => r.code));
    for (const hit of hits) {
      if (already.has(CODE_FOR[hit.kind])) continue;
      reasons.push({
        code: CODE_FOR[hit.kind],
        field: null,
        detail: `the message asks for a ${hit.kind.replace(/_/g, "-")} ("${hit.term}") and the form has free-text fields (${freeText.join(", ")}); use URL mode`,
      });
    }
  }
  return { verdict: reasons.length ? "block" : "allow", reasons };
}

/**
 * The linter for the text of a URL-mode request (an upstream's elicitation/create in URL mode or a
 * -32042). The link itself is judged by the URL check and the origin allowlist; the text shown
 * next to it must not carry another link (which would bypass both: red team F2), must not ask for
 * a secret in the conversation (the page behind the vetted link asks for it, if anything), and
 * must be short enough to read.
 */
export function lintLinkMessage(message: string): LintVerdict {
  const reasons: LintReason[] = [];
  if (!message.trim()) reasons.push({ code: "invalid_request", field: null, detail: "message must be a non-empty string" });
  if (message.length > MAX_MESSAGE_CHARS) reasons.push(tooLong());
  if (containsUrl(message))
    reasons.push({ code: "url_in_text", field: null, detail: "the message contains a link besides the checked one" });
  for (const hit of dedupe(findSecretTerms(normaliseForScan(message))))
    reasons.push({
      code: CODE_FOR[hit.kind],
      field: null,
      detail: `the message asks for a ${hit.kind.replace(/_/g, "-")} ("${hit.term}")`,
    });
  return { verdict: reasons.length ? "block" : "allow", reasons };
}

function tooLong(): LintReason {
  return { code: "invalid_request", field: null, detail: `the message is longer than ${MAX_MESSAGE_CHARS} characters` };
}

function dedupe<T extends { kind: string }>(hits: T[]): T[] {
  const seen = new Set<string>();
  return hits.filter((h) => (seen.has(h.kind) ? false : (seen.add(h.kind), true)));
}
