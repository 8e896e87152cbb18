// Issue 11 item 10: credential detection without false alarms or easy evasion. Two corpora in
// tests/fixtures/credential-corpus.json: ordinary values that must pass, evasions that must not.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_SHAPES, cardNetworkShape, credentialShape, luhnValid, scanContent } from "@/lib/elicitation/credential-scan";
import { normaliseForScan } from "@/lib/elicitation/credential-normalise";
import { findSecretRule, GITLEAKS_SOURCE, RULE_IDS, shannonEntropy } from "@/lib/elicitation/secret-rules";
import rules from "@/lib/elicitation/gitleaks-rules.json";

interface Case {
  name: string;
  value: string;
  shape?: string;
}
const corpus = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/credential-corpus.json"), "utf8")) as {
  ordinary: Case[];
  evasions: Case[];
};

describe("the corpora", () => {
  it("hold at least 200 ordinary values and the listed evasion classes, each named once", () => {
    expect(corpus.ordinary.length).toBeGreaterThanOrEqual(200);
    const names = [...corpus.ordinary, ...corpus.evasions].map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const shape of corpus.evasions.map((c) => c.shape)) expect(CREDENTIAL_SHAPES).toContain(shape);
  });
});

describe("ordinary values pass", () => {
  it.each(corpus.ordinary.map((c) => [c.name, c.value] as const))("%s", (_n, value) => {
    expect(credentialShape(value)).toBeUndefined();
  });
});

describe("evasions are caught with their shape", () => {
  it.each(corpus.evasions.map((c) => [c.name, c] as const))("%s", (_n, c) => {
    expect(credentialShape(c.value)).toBe(c.shape);
  });
});

describe("scanContent (the engine's API)", () => {
  const gh = corpus.evasions.find((c) => c.name === "GitHub personal access token")!.value;

  it("reports field and shape keyword only, never the value", () => {
    const out = scanContent({ title: "risk-assessment-for-q3-2026", note: `see ${gh}`, card: "4111.1111.1111.1111" });
    expect(out).toEqual([
      { field: "note", keyword: "credential_like:known_token" },
      { field: "card", keyword: "credential_like:card_number" },
    ]);
    const text = JSON.stringify(out);
    expect(text).not.toContain(gh.slice(4, 16));
    expect(text).not.toContain("4111");
  });

  it("looks into arrays of strings, reports a field once, and ignores non-strings", () => {
    expect(scanContent({ tags: ["ok", gh, gh], n: 4111111111111111, b: true, o: { nested: gh } as unknown })).toEqual([
      { field: "tags", keyword: "credential_like:known_token" },
    ]);
  });

  it("handles prototype-named keys as ordinary fields", () => {
    const content = JSON.parse(`{"__proto__": "${gh}", "constructor": "fine", "toString": "4111 1111 1111 1111"}`) as Record<
      string,
      unknown
    >;
    expect(scanContent(content)).toEqual([
      { field: "__proto__", keyword: "credential_like:known_token" },
      { field: "toString", keyword: "credential_like:card_number" },
    ]);
  });

  it("passes an empty object and odd strings without throwing", () => {
    expect(scanContent({})).toEqual([]);
    expect(scanContent({ a: "", b: "\u0000", c: "\ud800", d: "x".repeat(100_000) })).toEqual([]);
  });
});

describe("the building blocks", () => {
  it("uses gitleaks' vendored rules, every one compiled, with source and licence recorded", () => {
    expect(RULE_IDS.length).toBeGreaterThan(150);
    expect(GITLEAKS_SOURCE).toMatch(/^https:\/\/github\.com\/gitleaks\/gitleaks\/blob\/[0-9a-f]{40}\/config\/gitleaks\.toml$/);
    expect(rules.licence).toContain("MIT");
    for (const r of rules.rules) expect(() => new RegExp(r.regex.source, r.regex.flags)).not.toThrow();
  });

  it("honours gitleaks' allowlists (documentation placeholders are not secrets)", () => {
    expect(findSecretRule("AKIAIOSFODNN7EXAMPLE")).toBeUndefined();
    expect(findSecretRule("ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBeUndefined();
  });

  it("anchors on token boundaries: a prefix inside a word is not a token", () => {
    for (const v of [
      "risk-assessment-for-q3-2026",
      "task-tracking-dashboard-v2",
      "desk-organiser-premium-2026",
      "xoxo-goodbye-letter-2026",
      "mask_live_demo_recording_2026",
    ])
      expect(credentialShape(v)).toBeUndefined();
  });

  it("normalises NFKC, drops format characters, and un-confuses only mixed-script words", () => {
    expect(normaliseForScan("ｇｈｐ\u200b_x")).toBe("ghp_x");
    expect(normaliseForScan("gh\u0440_x")).toBe("ghp_x");
    expect(normaliseForScan("Ключ від офісу")).toBe("Ключ від офісу");
  });

  it("reads the decimal digits of every script as ASCII digits, so a card in Eastern Arabic or Devanagari digits is still a card", () => {
    const inScript = (zero: number, digits: string) =>
      [...digits].map((d) => (d === " " ? d : String.fromCodePoint(zero + Number(d)))).join("");
    expect(normaliseForScan(inScript(0x0660, "0123456789"))).toBe("0123456789"); // Arabic-Indic
    expect(normaliseForScan(inScript(0x06f0, "0123456789"))).toBe("0123456789"); // Extended Arabic-Indic (Persian)
    expect(normaliseForScan(inScript(0x0966, "0123456789"))).toBe("0123456789"); // Devanagari
    expect(normaliseForScan(inScript(0x0e50, "0123456789"))).toBe("0123456789"); // Thai
    for (const zero of [0x0660, 0x06f0, 0x0966, 0x09e6, 0x0e50, 0x1040]) {
      expect(credentialShape(`card ${inScript(zero, "4111 1111 1111 1111")}`)).toBe("card_number");
      expect(credentialShape(`order ${inScript(zero, "4111 1111 1111 1112")}`)).toBeUndefined(); // not Luhn-valid
    }
    expect(normaliseForScan("Рахунок ٣ від ١٢ травня")).toBe("Рахунок 3 від 12 травня");
  });

  it("checks cards by Luhn, network prefix and length", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(cardNetworkShape("9780306406157")).toBe(false); // an ISBN-13 is never a card prefix
    expect(cardNetworkShape("378282246310005")).toBe(true);
    expect(cardNetworkShape("3782822463100050")).toBe(false); // Amex is 15 digits
  });

  it("measures Shannon entropy in bits per character", () => {
    expect(shannonEntropy("")).toBe(0);
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
  });
});
