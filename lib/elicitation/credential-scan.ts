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

export const CREDENTIAL_SHAPES = [
  "private_key",
  "jwt",
  "known_token",
  "card_number",
  "bearer_token",
  "secret_assignment",
  "url_credentials",
  "bank_account",
] as const;
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

// Shapes gitleaks' rules leave to context, kept here because a form answer has no context: a
// password inside a connection string ("postgres://admin:S3cret@db/prod"), an unsigned JWT (its
// signature part empty, too short for the jwt rule), an IBAN (mod-97 checked, so ordinary codes
// pass), and "password=..." whose value gitleaks' generic rule misses for its punctuation.
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@]{0,200}:([^\s/?#@]{3,200})@[^\s]/i;
const UNSIGNED_JWT = /\b(eyJ[A-Za-z0-9_-]{8,})\.(eyJ[A-Za-z0-9_-]{2,})\.(?![A-Za-z0-9_-])/;
const PASSWORD_ASSIGNMENT = /\b(?:password|passwd|pwd|passphrase|passwort|kennwort|пароль)\s{0,3}[:=]\s{0,3}["']?([^\s"']{6,200})/iu;
const IBAN = /\b([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{1,4}){3,8})\b/g;

function urlPasswordIn(text: string): boolean {
  const m = URL_PASSWORD.exec(text);
  return !!m && !/^(?:\*+|x+|\.{3,}|<[^>]*>|\$\{?\w+\}?|password|pass|secret)$/i.test(m[1]!);
}

function unsignedJwtIn(text: string): boolean {
  const m = UNSIGNED_JWT.exec(text);
  if (!m) return false;
  try {
    const header = JSON.parse(Buffer.from(m[1]!, "base64url").toString("utf8")) as unknown;
    return typeof header === "object" && header !== null && "alg" in header;
  } catch {
    return false;
  }
}

function passwordAssignmentIn(text: string): boolean {
  const m = PASSWORD_ASSIGNMENT.exec(text);
  if (!m) return false;
  const value = m[1]!;
  // A placeholder or a variable is not a password; a password has letters and digits or symbols.
  if (/^(?:\*+|x+|\.{3,}|<[^>]*>|\$\{?\w+\}?|reset\b.*|required|optional|none|null|changeme)$/i.test(value)) return false;
  return /\p{L}/u.test(value) && /[\p{N}\p{P}\p{S}]/u.test(value);
}

// IBAN length by country (SWIFT's IBAN registry): a country's numbers all have its one length,
// which with the mod-97 check keeps codes and random identifiers from reading as an IBAN.
const IBAN_LENGTH: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** ISO 13616: the country's length, and the rearranged number (letters as 10..35) is 1 modulo 97. */
export function ibanValid(compact: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact) || compact.length !== IBAN_LENGTH[compact.slice(0, 2)]) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const v = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (v > 9 ? rest * 100 + v : rest * 10 + v) % 97;
  }
  return rest === 1;
}

function ibanIn(text: string): boolean {
  // As printed: capitals (a lower-case run is an identifier, not an account number).
  for (const m of text.matchAll(IBAN)) if (ibanValid(m[1]!.replace(/ /g, ""))) return true;
  return false;
}

function shapeOf(text: string): CredentialShape | undefined {
  if (PRIVATE_KEY_HEADER.test(text)) return "private_key";
  const rule = findSecretRule(text);
  if (rule) return SHAPE_OF_RULE[rule] ?? "known_token";
  if (authSchemeIn(text)) return "bearer_token";
  if (cardNumberIn(text)) return "card_number";
  if (urlPasswordIn(text)) return "url_credentials";
  if (unsignedJwtIn(text)) return "jwt";
  if (passwordAssignmentIn(text)) return "secret_assignment";
  if (ibanIn(text)) return "bank_account";
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
