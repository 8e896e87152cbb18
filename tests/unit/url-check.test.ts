// Issue 11 item 11: URLs that parsers disagree on are blocked. Every case in tests/fixtures/urls.json
// (also run through `ctl check-url` by tests/integration/ctl-check-url.test.ts), plus the reason
// codes that say why, and inputs a command line cannot carry.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkUrl } from "@/lib/policy/url-check";

interface UrlCase {
  name?: string;
  url: string;
  expect: "allow" | "warn" | "block";
  dev?: boolean;
}
const fixtures = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/urls.json"), "utf8")) as { cases: UrlCase[] };
const codes = (url: string, dev = false) => checkUrl(url, { dev }).reasons.map((r) => r.code);

describe("checkUrl on the URL fixtures", () => {
  it("has named, distinct cases", () => {
    const names = fixtures.cases.flatMap((c) => (c.name ? [c.name] : []));
    expect(names.length).toBeGreaterThanOrEqual(45);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(fixtures.cases.map((c) => [c.name ?? c.url, c] as const))("%s", (_n, c) => {
    const r = checkUrl(c.url, { dev: c.dev ?? false });
    if (c.expect === "warn") expect(["warn", "block"]).toContain(r.verdict);
    else expect(r.verdict).toBe(c.expect);
    // A verdict always explains itself: blocked and warned URLs name at least one reason.
    expect(r.reasons.length > 0).toBe(r.verdict !== "allow");
  });
});

describe("why a URL is blocked", () => {
  it.each([
    ["https://connect.example.com\\@evil.example/", "backslash"],
    ["https://a.com%2F@b.com/", "percent_in_authority"],
    ["https://a.com%2F@b.com/", "userinfo"],
    ["https://@evil.example/", "userinfo"],
    ["https://0x7f.1/", "authority_differs"],
    ["https://[0:0::1]/", "authority_differs"],
    ["https://connect.example.com:0443/", "authority_differs"],
    ["https:///evil.example/", "authority_differs"],
    ["https://evil\u3002example/", "authority_differs"],
    ["https://connect.example.com./", "trailing_dot"],
    ["https://evil.example#@connect.example.com", "deceptive_at_sign"],
    ["https://connect.example.com.evil.example/", "embedded_domain"],
    ["https://connect.exa\u200bmple.com/", "invisible_character"],
    ["https://connect.example.com/\u2028", "whitespace"],
    ["https://connect.example.com/\u0000", "control_character"],
    ["https://connect.example.com/\r\n", "control_character"],
    [`https://connect.example.com/${"a".repeat(3000)}`, "too_long"],
  ])("%s -> %s", (url, code) => {
    expect(codes(url)).toContain(code);
  });

  it("keeps the verdict shape and reports the host that a browser would contact", () => {
    const r = checkUrl("https://connect.example.com\\@evil.example/");
    expect(Object.keys(r).sort()).toEqual(["host", "reasons", "unicodeHost", "verdict"]);
    expect(r).toMatchObject({ verdict: "block", host: "connect.example.com" });
    for (const reason of r.reasons) expect(Object.keys(reason).sort()).toEqual(["code", "detail", "severity"]);
  });

  it("does not trim: a value with surrounding whitespace is not silently repaired", () => {
    expect(checkUrl("https://connect.example.com/ ").verdict).toBe("block");
    expect(checkUrl("\thttps://connect.example.com/").verdict).toBe("block");
  });

  it("still allows the plain connect URL the engine emits, in production and in development", () => {
    expect(checkUrl("https://connect.example.com/connect/3f1c2a9e7b6d4c1f").verdict).toBe("allow");
    expect(checkUrl("http://localhost:3000/connect/3f1c2a9e7b6d4c1f", { dev: true }).verdict).toBe("allow");
    expect(checkUrl("http://127.0.0.1:3000/connect/3f1c2a9e7b6d4c1f", { dev: true }).verdict).toBe("allow");
  });

  it("never throws on odd input", () => {
    for (const u of [
      "",
      ":",
      "//",
      "https://",
      "https://[",
      "https://]",
      "https://%",
      "\u0000",
      "https://a..b/",
      "https://-a-.com/",
      "__proto__",
      "constructor",
    ]) {
      expect(["warn", "block", "allow"]).toContain(checkUrl(u).verdict);
    }
  });
});

describe("credentials in the URL use the form-answer detector", () => {
  it.each([
    ["a GitHub token as a path segment", "https://connect.example.com/connect/ghp_R7fK2mQ9xL4vT8nW1pZ6cY3bH5jD0sGtEu9a"],
    ["a card number in a harmless parameter", "https://connect.example.com/cb?ref=4111.1111.1111.1111"],
    [
      "a JWT split by an encoded zero-width space",
      "https://connect.example.com/cb?s=eyJhbGciOiJIUzI1NiJ9%E2%80%8B.eyJzdWIiOiJhbGljZS0xMjM0NTYifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ",
    ],
    ["a Stripe key in the fragment", "https://connect.example.com/cb#k=sk_live_51HxYzQ2eZvKYlo2C9f8d7e6a5"],
  ])("%s is blocked", (_n, url) => {
    expect(codes(url)).toContain("credential_in_url");
  });

  it("never blocks the engine's own connect URLs (random 128-bit record ids)", async () => {
    const { newRecordId } = await import("@/lib/elicitation/records");
    for (let i = 0; i < 2000; i++) {
      const url = `https://connect.example.com/connect/${newRecordId()}`;
      expect(checkUrl(url).verdict, url).toBe("allow");
    }
  });
});
