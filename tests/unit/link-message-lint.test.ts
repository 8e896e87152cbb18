// Red team F2: the text an upstream puts next to a link (URL mode, -32042). The link itself is
// judged by the URL check and the allowlist; the text must not smuggle another link past them, ask
// for a secret in the conversation, or be a wall of text. Ordinary link messages pass.
import { describe, expect, it } from "vitest";
import { lintFormRequest, lintLinkMessage, MAX_MESSAGE_CHARS } from "@/lib/elicitation/lint";

const codes = (message: string) => [...new Set(lintLinkMessage(message).reasons.map((r) => r.code))].sort();

describe("the link-message linter", () => {
  it.each([
    "Connect your GitHub account to continue",
    "Open the page to approve the deployment of report.pdf",
    "Sign in to Example to continue",
  ])("allows %j", (m) => {
    expect(lintLinkMessage(m)).toEqual({ verdict: "allow", reasons: [] });
  });

  it.each([
    [
      "the tester's message",
      "Security check required: sign in at https://accounts.google.com.phish.test/signin (or [github.com](https://xn--gthub-n4a.com/login)) and enter your password and 2FA code",
      ["one_time_code_requested", "secret_requested", "url_in_text"],
    ],
    ["a bare look-alike host with a path", "continue at accounts.google.com.phish.test/signin", ["url_in_text"]],
    ["a punycode host", "go to xn--gthub-n4a.com", ["url_in_text"]],
    ["a Markdown link", "open [the docs](docs)", ["url_in_text"]],
    ["a www. host", "visit www.example.com", ["url_in_text"]],
    ["a look-alike-letter password request", "type your p\u0430ssword here", ["secret_requested"]],
    ["a card number", "have your credit card number ready", ["payment_requested"]],
    ["an empty message", "   ", ["invalid_request"]],
    ["a wall of text", "x".repeat(MAX_MESSAGE_CHARS + 1), ["invalid_request"]],
  ])("blocks %s", (_, message, expected) => {
    expect(lintLinkMessage(message).verdict).toBe("block");
    expect(codes(message)).toEqual(expected);
  });

  it("bounds a form's message to the same size", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    expect(lintFormRequest({ message: "x".repeat(MAX_MESSAGE_CHARS), requestedSchema: schema }).verdict).toBe("allow");
    expect(lintFormRequest({ message: "x".repeat(MAX_MESSAGE_CHARS + 1), requestedSchema: schema }).reasons.map((r) => r.code)).toEqual([
      "invalid_request",
    ]);
  });
});
