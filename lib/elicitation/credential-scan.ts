// Accepted form content that looks like a credential is rejected (and never stored or logged):
// someone pasted a secret where a harmless value was expected. The checks are on shapes only and
// report only the field and the shape, never the value.
//
// Text is normalised first (credential-normalise.ts) so invisible characters, compatibility forms
// and look-alike letters cannot hide a secret; the vendor token formats come from gitleaks' rule
// set (secret-rules.ts), anchored on token boundaries as gitleaks anchors them. Three shapes that
// rule set does not cover are kept here: a PEM private-key header on its own (a pasted key may be
// cut short), "Bearer"/"Basic" credentials outside a curl command, and payment card numbers
// (Luhn-valid, a card network's prefix and length, any mix of separators between digit groups).
import { normaliseForScan, unwrapDelimiters } from "./credential-normalise";
import { findSecretRule, shannonEntropy } from "./secret-rules";

export const CREDENTIAL_SHAPES = ["private_key", "jwt", "known_token", "card_number", "bearer_token", "secret_assignment"] as const;
export type CredentialShape = (typeof CREDENTIAL_SHAPES)[number];

const SHAPE_OF_RULE: Record<string, CredentialShape> = {
  "private-key": "private_key",
  jwt: "jwt",
  "jwt-base64": "jwt",
  "curl-auth-header": "bearer_token",
  "curl-auth-user": "bearer_token",
  "generic-api-key": "secret_assignment",
};

const PRIVATE_KEY_HEADER = /-----\s*BEGIN[ A-Z0-9_-]{0,100}PRIVATE\s+KEY(?:\s+BLOCK)?\s*-----|PuTTY-User-Key-File-\d/i;
// "Bearer <token>", "Authorization: Basic <base64>": the scheme word then a token-alphabet run.
const AUTH_SCHEME = /\b(?:bearer|basic)\s*[:=]?\s+([A-Za-z0-9._~+/-]{16,}={0,2})(?![A-Za-z0-9._~+/=-])/gi;
// Digit groups joined by up to three separator characters (any space or dash punctuation, dot,
// underscore, slash, comma, colon, middle dot, bullet), not glued to letters, and not a phone
// number (a leading "+").
const SEPARATOR = "[\\s\\p{Pd}._/,:·•]";
const DIGIT_RUN = new RegExp(`(?<![\\p{L}\\p{N}+])\\d+(?:${SEPARATOR}{1,3}\\d+)*(?![\\p{L}\\p{N}])`, "gu");
const SEPARATORS = new RegExp(`${SEPARATOR}+`, "u");

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

/** Issuer prefixes and lengths of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay). */
export function cardNetworkShape(digits: string): boolean {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  if (digits[0] === "4") return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || p2 === 62) return n >= 16 && n <= 19;
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19;
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19;
  return false;
}

const isCard = (digits: string) => digits.length >= 13 && digits.length <= 19 && cardNetworkShape(digits) && luhnValid(digits);

// The whole run, however it is split ("4 1 1 1 ..."), and every window of consecutive groups of
// three or more digits, so extra groups before or after a card number do not hide it.
function cardNumberIn(text: string): boolean {
  for (const m of text.matchAll(DIGIT_RUN)) {
    const groups = m[0].split(SEPARATORS);
    if (isCard(groups.join(""))) return true;
    for (let i = 0; i < groups.length; i++) {
      let digits = "";
      for (let j = i; j < groups.length && groups[j]!.length >= 3 && digits.length < 19; j++) {
        digits += groups[j];
        if (isCard(digits)) return true;
      }
    }
  }
  return false;
}

function authSchemeIn(text: string): boolean {
  for (const m of text.matchAll(AUTH_SCHEME)) {
    const token = m[1]!;
    if (/\d/.test(token) && shannonEntropy(token) > 3) return true;
  }
  return false;
}

function shapeOf(text: string): CredentialShape | undefined {
  if (PRIVATE_KEY_HEADER.test(text)) return "private_key";
  const rule = findSecretRule(text);
  if (rule) return SHAPE_OF_RULE[rule] ?? "known_token";
  if (authSchemeIn(text)) return "bearer_token";
  if (cardNumberIn(text)) return "card_number";
  return undefined;
}

export function credentialShape(text: string): CredentialShape | undefined {
  const normal = normaliseForScan(text);
  return shapeOf(normal) ?? shapeOf(unwrapDelimiters(normal));
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
