// gitleaks' default rules, vendored as data (gitleaks-rules.json: source commit and MIT licence
// inside; regenerate with scripts/vendor-gitleaks-rules.py), applied the way gitleaks applies them:
// keyword prefilter, regex, secret group, Shannon-entropy floor (generic rules also need a digit),
// then the rule's and the global allowlists (regexes on the secret, match or line; stopwords).
// A maintained rule set instead of hand-kept regexes: new token formats arrive with an update.
import data from "./gitleaks-rules.json";

interface RawRegex {
  source: string;
  flags: string;
}
interface RawAllowlist {
  regexes?: RawRegex[];
  stopwords?: string[];
  regexTarget?: string;
  condition?: string;
}
interface RawRule {
  id: string;
  regex: RawRegex;
  keywords: string[];
  secretGroup?: number;
  entropy?: number;
  allowlists?: RawAllowlist[];
}

interface Allowlist {
  regexes: RegExp[];
  stopwords: string[];
  target: "secret" | "match" | "line";
  all: boolean;
}
interface Rule {
  id: string;
  re: RegExp;
  keywords: string[];
  secretGroup: number | undefined;
  entropy: number | undefined;
  allowlists: Allowlist[];
}

const compile = (r: RawRegex, global = false) => new RegExp(r.source, r.flags + (global ? "g" : ""));
const compileAllowlist = (a: RawAllowlist): Allowlist => ({
  regexes: (a.regexes ?? []).map((r) => compile(r)),
  stopwords: a.stopwords ?? [],
  target: a.regexTarget === "match" || a.regexTarget === "line" ? a.regexTarget : "secret",
  all: a.condition === "AND",
});

export const GITLEAKS_SOURCE: string = data.source;
const RULES: Rule[] = (data.rules as RawRule[]).map((r) => ({
  id: r.id,
  re: compile(r.regex, true),
  keywords: r.keywords,
  secretGroup: r.secretGroup,
  entropy: r.entropy,
  allowlists: (r.allowlists ?? []).map(compileAllowlist),
}));
const GLOBAL = compileAllowlist(data.allowlist as RawAllowlist);

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function allowed(a: Allowlist, secret: string, match: string, line: string): boolean {
  const target = a.target === "match" ? match : a.target === "line" ? line : secret;
  const lower = secret.toLowerCase();
  const checks: boolean[] = [];
  if (a.regexes.length) checks.push(a.regexes.some((re) => re.test(target)));
  if (a.stopwords.length) checks.push(a.stopwords.some((w) => lower.includes(w)));
  return checks.length > 0 && (a.all ? checks.every(Boolean) : checks.some(Boolean));
}

function lineAround(text: string, index: number, length: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index + length);
  return text.slice(start, end < 0 ? text.length : end);
}

/** The id of the first gitleaks rule that finds a secret in the text, if any. */
export function findSecretRule(text: string): string | undefined {
  const lower = text.toLowerCase();
  for (const rule of RULES) {
    if (rule.keywords.length && !rule.keywords.some((k) => lower.includes(k))) continue;
    for (const m of text.matchAll(rule.re)) {
      const groups = m.slice(1);
      const secret = (rule.secretGroup ? m[rule.secretGroup] : groups.find((g) => g)) ?? (groups.length && rule.secretGroup ? "" : m[0]);
      if (!secret) continue;
      if (rule.entropy !== undefined) {
        if (shannonEntropy(secret) <= rule.entropy) continue;
        if (rule.id.startsWith("generic") && !/\d/.test(secret)) continue;
      }
      const line = lineAround(text, m.index, m[0].length);
      if (allowed(GLOBAL, secret, m[0], line)) continue;
      if (rule.allowlists.some((a) => allowed(a, secret, m[0], line))) continue;
      return rule.id;
    }
  }
  return undefined;
}
