// Words that ask for a secret, in English, German and Ukrainian. Each rule names what kind of
// secret it finds. Matching is on normalised text (snake_case, camelCase and kebab-case split into
// words, lower-cased), with Unicode-aware word edges so "max_tokens" or "passport" do not match
// "token" or "pass". Only free-text fields are judged: choosing "strict" from a list of password
// policies reveals nothing (see the fixtures for both sides).
export type SecretKind = "credential" | "payment" | "one_time_code";

interface Rule {
  kind: SecretKind;
  term: string;
  pattern: RegExp;
}

const L = "\\p{L}\\p{N}";
const word = (body: string) => new RegExp(`(?<![${L}])(?:${body})(?![${L}])`, "iu");

const RULES: Rule[] = [
  // Credentials (EN)
  { kind: "credential", term: "password", pattern: word("pass ?words?|passwd|pwd|pass ?phrases?|pass ?codes?") },
  { kind: "credential", term: "secret", pattern: word("(?:client |app |api |shared |webhook |signing )?secrets?(?: keys?)?") },
  {
    kind: "credential",
    term: "api key",
    pattern: word(
      "api ?keys?|access ?keys?|secret ?keys?|private ?keys?|ssh ?keys?|signing ?keys?|license ?keys?|product ?keys?|encryption ?keys?|pgp ?keys?|gpg ?keys?",
    ),
  },
  {
    kind: "credential",
    term: "token",
    pattern: word(
      "(?:personal access |access |auth |bearer |refresh |session |api |id |oauth |github |gitlab |slack )?tokens?|pats?|jwts?",
    ),
  },
  {
    kind: "credential",
    term: "credentials",
    pattern: word("credentials?|login details|connection strings?|seed phrases?|recovery phrases?|mnemonic(?: phrases?)?|cookies?"),
  },
  { kind: "credential", term: "pin", pattern: word("pins?|pin codes?") },
  // Credentials (DE)
  {
    kind: "credential",
    term: "Passwort",
    pattern: word(
      "passw(?:o|ö)rt(?:er)?|kennw(?:o|ö)rt(?:er)?|geheimnis|geheimschlüssel|zugangsdaten|anmeldedaten|zugangsschlüssel|api[- ]?schlüssel|privater schlüssel|private[nr]? schlüssel|zugangstoken|zugriffstoken",
    ),
  },
  // Credentials (UK)
  {
    kind: "credential",
    term: "пароль",
    pattern: word(
      "парол(?:ь|я|і|ем|ів)|секрет(?:ний|на|не)?|токен(?:а|у|и)?(?: доступу)?|облікові дані|приватний ключ|закритий ключ|секретний ключ|api[- ]?ключ|ключ api|ключ доступу",
    ),
  },
  // Payment
  {
    kind: "payment",
    term: "card",
    pattern: word(
      "(?:credit |debit )?card ?(?:numbers?|no|details)|credit ?cards?|debit ?cards?|cvc2?|cvv2?|csc|card verification|security code|expiry date|iban|bic|swift(?: code)?|routing numbers?|account numbers?|bank account|sort code",
    ),
  },
  {
    kind: "payment",
    term: "Kartennummer",
    pattern: word("kartennummer|kreditkarte(?:nnummer)?|kartenprüfnummer|prüfziffer|kontonummer|bankverbindung|bankkonto"),
  },
  {
    kind: "payment",
    term: "номер картки",
    pattern: word(
      "номер(?:а|у)? картки|кредитн(?:а|ої) картк(?:а|и)|банківськ(?:а|ої) картк(?:а|и)|номер рахунку|банківський рахунок|cvv|cvc",
    ),
  },
  // One-time codes (authentication factors)
  {
    kind: "one_time_code",
    term: "one-time code",
    pattern: word(
      "one[- ]time (?:codes?|passwords?|pins?)|otps?|totp|2fa|mfa|two[- ]factor|verification codes?|authentication codes?|auth codes?|security codes?|recovery codes?|backup codes?|sms codes?|authenticator(?: app)?|\\d+[- ]digit codes?",
    ),
  },
  {
    kind: "one_time_code",
    term: "Einmalcode",
    pattern: word("einmal(?:code|passwort|kennwort)|bestätigungscode|sicherheitscode|authentifizierungscode|tan|mtan|smstan"),
  },
  {
    kind: "one_time_code",
    term: "одноразовий код",
    pattern: word(
      "одноразов(?:ий|ого) (?:код|пароль)|код(?:у)? підтвердження|код(?:у)? автентифікації|код(?:у)? безпеки|автентифікатор(?:а)?|\\d+-значний код",
    ),
  },
];

/** snake_case, camelCase and kebab-case become separate lower-case words. */
export function normalise(text: string): string {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/[_\-./:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

export interface SecretHit {
  kind: SecretKind;
  term: string;
}

export function findSecretTerms(text: string): SecretHit[] {
  const hay = normalise(text);
  // Hyphenated originals ("Client-Secret", "API-Schlüssel", "PIN-код") are also tried as written.
  const raw = text.toLowerCase();
  const hits: SecretHit[] = [];
  for (const rule of RULES) {
    if (rule.pattern.test(hay) || rule.pattern.test(raw)) hits.push({ kind: rule.kind, term: rule.term });
  }
  return hits;
}
