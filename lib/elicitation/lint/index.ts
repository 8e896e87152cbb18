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
  const consts = [...(Array.isArray(def.oneOf) ? def.oneOf : []), ...(def.items && Array.isArray((def.items as Def).anyOf) ? ((def.items as Def).anyOf as unknown[]) : [])];
  for (const c of consts) {
    push((c as Def)?.const);
    push((c as Def)?.title);
  }
  for (const v of def.items && Array.isArray((def.items as Def).enum) ? ((def.items as Def).enum as unknown[]) : []) push(v);
  return out;
}

function textsOf(def: Def): string[] {
  const out = [def.title, def.description, typeof def.default === "string" ? def.default : undefined].filter((v): v is string => typeof v === "string");
  if (Array.isArray(def.default)) out.push(...def.default.filter((v): v is string => typeof v === "string"));
  return [...out, ...labelsOf(def)];
}

export function lintFormRequest(request: unknown): LintVerdict {
  const reasons: LintReason[] = checkStructure(request);
  const req = request as { message?: unknown; requestedSchema?: { properties?: unknown } };
  const props = req && typeof req === "object" && req.requestedSchema && typeof req.requestedSchema.properties === "object" && req.requestedSchema.properties !== null
    ? (req.requestedSchema.properties as Record<string, unknown>)
    : {};
  const message = typeof req?.message === "string" ? req.message : "";

  if (containsUrl(message)) reasons.push({ code: "url_in_text", field: null, detail: "the message contains a link; forms must not carry clickable URLs" });
  const freeText: string[] = [];
  const labels: string[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (typeof raw !== "object" || raw === null) continue;
    const def = raw as Def;
    if (textsOf(def).some(containsUrl)) reasons.push({ code: "url_in_text", field: name, detail: "a title, description, default or option contains a link" });
    labels.push(...labelsOf(def));
    if (def.format === "password") reasons.push({ code: "secret_requested", field: name, detail: 'format "password" asks for a secret' });
    if (!isFreeText(def)) continue;
    freeText.push(name);
    const hits = findSecretTerms(normaliseForScan([name, def.title, def.description].filter((v) => typeof v === "string").join(" \n ")));
    for (const hit of dedupe(hits)) reasons.push({ code: CODE_FOR[hit.kind], field: name, detail: `asks for a ${hit.kind.replace(/_/g, "-")} ("${hit.term}"); use URL mode` });
  }
  // The message (and option labels) can ask for the secret while the field name looks innocent.
  if (freeText.length > 0) {
    const hits = dedupe(findSecretTerms(normaliseForScan([message, ...labels].join(" \n "))));
    const already = new Set(reasons.filter((r) => r.field !== null).map((r) => r.code));
    for (const hit of hits) {
      if (already.has(CODE_FOR[hit.kind])) continue;
      reasons.push({ code: CODE_FOR[hit.kind], field: null, detail: `the message asks for a ${hit.kind.replace(/_/g, "-")} ("${hit.term}") and the form has free-text fields (${freeText.join(", ")}); use URL mode` });
    }
  }
  return { verdict: reasons.length ? "block" : "allow", reasons };
}

function dedupe<T extends { kind: string }>(hits: T[]): T[] {
  const seen = new Set<string>();
  return hits.filter((h) => (seen.has(h.kind) ? false : (seen.add(h.kind), true)));
}
