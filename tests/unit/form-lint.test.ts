import { describe, expect, it } from "vitest";
import { lintFormRequest } from "@/lib/elicitation/lint";
import { findSecretTerms } from "@/lib/elicitation/lint/secret-terms";

const form = (properties: Record<string, unknown>, message = "Please answer.") => ({
  message,
  requestedSchema: { type: "object", properties },
});
const codes = (r: ReturnType<typeof lintFormRequest>) => r.reasons.map((x) => `${x.code}:${x.field ?? "-"}`);

describe("secret terms", () => {
  it.each([
    ["passport number", []],
    ["compass heading", []],
    ["Reisepassnummer", []],
    ["tokenizer model", []],
    ["keyboard layout", []],
    ["Kennwort", ["credential"]],
    ["API-Schlüssel", ["credential"]],
    ["Токен доступу", ["credential"]],
    ["номер картки", ["payment"]],
    ["Bestätigungscode", ["one_time_code"]],
    ["код підтвердження", ["one_time_code"]],
    ["refreshToken", ["credential"]],
  ])("%s -> %j", (text, kinds) => {
    expect(findSecretTerms(text).map((h) => h.kind)).toEqual(kinds);
  });
});

describe("form linter", () => {
  it("allows harmless look-alikes as free text", () => {
    expect(
      lintFormRequest(
        form({ passport_country: { type: "string", title: "Passport country" }, keyboard: { type: "string", title: "Keyboard layout" } }),
      ).verdict,
    ).toBe("allow");
  });

  it("blocks a secret asked for in the description of an innocent field", () => {
    expect(codes(lintFormRequest(form({ note: { type: "string", description: "Paste the bearer token here" } })))).toEqual([
      "secret_requested:note",
    ]);
  });

  it("blocks a secret asked for in the message when there is a free-text field", () => {
    expect(codes(lintFormRequest(form({ value: { type: "string" } }, "Bitte geben Sie Ihr Passwort ein.")))).toEqual([
      "secret_requested:-",
    ]);
  });

  it("does not block a secret word in the message when the user can only choose", () => {
    expect(
      lintFormRequest(form({ rotate: { type: "boolean", title: "Rotate the API key now?" } }, "Your API key is 90 days old.")).verdict,
    ).toBe("allow");
  });

  it.each([
    ["a scheme in a title", { a: { type: "boolean", title: "See http://x.test" } }],
    ["www in a description", { a: { type: "boolean", description: "visit www.example.org" } }],
    ["a markdown link in an option", { a: { type: "string", oneOf: [{ const: "a", title: "[terms](x)" }] } }],
    ["javascript in a default", { a: { type: "string", default: "javascript:alert(1)" } }],
  ])("blocks %s", (_n, props) => {
    expect(codes(lintFormRequest(form(props)))).toContain("url_in_text:a");
  });

  it("allows file names and versions that merely contain dots", () => {
    expect(lintFormRequest(form({ f: { type: "string", title: "Export as report.pdf (v1.2)" } })).verdict).toBe("allow");
  });

  it.each([
    ["pattern", { a: { type: "string", pattern: "^a" } }, "unsupported_keyword:a"],
    ["a nested array of objects", { a: { type: "array", items: { type: "object" } } }, "unsupported_type:a"],
    ["an unknown format", { a: { type: "string", format: "ipv4" } }, "unsupported_format:a"],
    ["a null type", { a: { type: "null" } }, "unsupported_type:a"],
    ["a wrongly typed default", { a: { type: "boolean", default: "yes" } }, "invalid_keyword_value:a"],
  ])("refuses %s", (_n, props, code) => {
    expect(codes(lintFormRequest(form(props)))).toContain(code);
  });

  it("refuses malformed requests without throwing", () => {
    for (const bad of [
      null,
      42,
      "x",
      {},
      { message: "m" },
      { message: "m", requestedSchema: { type: "array" } },
      { message: "m", requestedSchema: { type: "object", properties: {}, required: ["x"] } },
    ]) {
      expect(lintFormRequest(bad).verdict).toBe("block");
    }
  });
});

describe("secret terms disguised with Unicode", () => {
  it.each(["p\u0430ssword", "Pass\u200bword", "\uff30\uff21\uff33\uff33\uff37\uff2f\uff32\uff24", "P\u00adassword"])(
    "%s is still a password",
    (title) => {
      const r = lintFormRequest({ message: "Sign in", requestedSchema: { type: "object", properties: { f: { type: "string", title } } } });
      expect(r.verdict).toBe("block");
      expect(r.reasons.map((x) => x.code)).toContain("secret_requested");
    },
  );
});
