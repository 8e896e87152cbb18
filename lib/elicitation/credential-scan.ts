// Accepted form content that looks like a credential is rejected (and never stored or logged):
// someone pasted a secret where a harmless value was expected. The checks are on shapes only.
export type CredentialShape = "private_key" | "jwt" | "known_token" | "card_number";

const PRIVATE_KEY = /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----|-----BEGIN OPENSSH PRIVATE KEY-----|PuTTY-User-Key-File/;
const KNOWN_TOKEN = new RegExp(
  [
    "gh[pousr]_[A-Za-z0-9]{36,}",
    "github_pat_[A-Za-z0-9_]{40,}",
    "glpat-[A-Za-z0-9_-]{20,}",
    "xox[abprs]-[A-Za-z0-9-]{10,}",
    "sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}",
    "(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
    "AKIA[0-9A-Z]{16}",
    "ASIA[0-9A-Z]{16}",
    "AIza[0-9A-Za-z_-]{35}",
    "npm_[A-Za-z0-9]{36}",
    "SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}",
  ].join("|"),
);
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/;
const DIGIT_RUN = /(?:\d[ -]?){12,18}\d/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function credentialShape(text: string): CredentialShape | undefined {
  if (PRIVATE_KEY.test(text)) return "private_key";
  if (KNOWN_TOKEN.test(text)) return "known_token";
  if (JWT.test(text)) return "jwt";
  for (const m of text.matchAll(DIGIT_RUN)) {
    const digits = m[0].replace(/[ -]/g, "");
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return "card_number";
  }
  return undefined;
}

/** Fields whose string values look like credentials, with the shape (never the value). */
export function scanContent(content: Record<string, unknown>): Array<{ field: string; keyword: string }> {
  const out: Array<{ field: string; keyword: string }> = [];
  for (const [field, value] of Object.entries(content)) {
    const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
    for (const t of texts) {
      const shape = credentialShape(t);
      if (shape) {
        out.push({ field, keyword: `credential_like:${shape}` });
        break;
      }
    }
  }
  return out;
}
