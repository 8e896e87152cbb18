import { describe, expect, it } from "vitest";
import { consentPage } from "@/lib/auth/dev-idp/consent-page";
import { untrustedText } from "@/lib/auth/dev-idp/escape-html";
import { loginPage } from "@/lib/auth/dev-idp/login-page";

// What a client declares about itself reaches the pages where a person decides (sign-in, consent).
// Markup is escaped; bidi overrides and invisible characters are shown as code points, never
// passed raw, so "\u202Emoc.elgoog" cannot be drawn as "google.com".
const TRICKS = [
  "\u202e",
  "\u202d",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200b",
  "\u200e",
  "\u200f",
  "\u061c",
  "\ufeff",
  "\u0000",
  "\u001b",
];

describe("untrusted text on provider pages", () => {
  it.each(TRICKS.map((c) => [c.codePointAt(0)!.toString(16)]))("shows U+%s as a visible code point inside <bdi>", (hex) => {
    const out = untrustedText(`Trusted${String.fromCodePoint(parseInt(hex, 16))}App`);
    expect(out).toBe(`<bdi>Trusted\\u{${hex.toUpperCase()}}App</bdi>`);
  });

  it("escapes markup and keeps ordinary non-Latin text", () => {
    expect(untrustedText('<img src=x onerror="alert(1)">')).toBe("<bdi>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</bdi>");
    expect(untrustedText("Клієнт Ärger עברית")).toBe("<bdi>Клієнт Ärger עברית</bdi>");
  });

  it("the consent and sign-in pages carry no raw override from a client's name or redirect URI", () => {
    const view = {
      clientId: "c\u202e1",
      clientName: "Good\u202eelgoog.com",
      redirectUri: "https://evil.example/cb\u202e",
      scopes: ["openid"],
      resources: {},
    };
    const pages = [
      consentPage({ prefix: "/oidc", uid: "u", csrf: "t", title: "Demo", view }),
      loginPage({ uid: "u", clientName: "Good\u202eelgoog.com", prefix: "/oidc", title: "Demo" }),
    ];
    for (const html of pages) {
      expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
      expect(html).toContain("Good\\u{202E}elgoog.com");
    }
  });
});
