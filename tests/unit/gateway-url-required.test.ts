// The -32042 data an upstream sends is judged before anything is shown: only a bounded list of
// well-formed URL elicitations is used; anything else is "malformed"; other errors are not -32042.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CompletionWatch, MAX_REQUIRED_URLS, urlRequiredOf } from "@/lib/gateway/url-required";
import { takeAsk, withinAskSize, MAX_ASKS_PER_CALL, MAX_ASK_BYTES } from "@/lib/gateway/ask-budget";

const one = { mode: "url", message: "Connect", url: "https://github.com/login", elicitationId: "e1" };

describe("urlRequiredOf", () => {
  it("reads a well-formed -32042, dropping unknown keys", () => {
    expect(urlRequiredOf(new McpError(-32042, "x", { elicitations: [{ ...one, extra: "y" }] }))).toEqual([one]);
  });

  it.each([
    ["no data", undefined],
    ["an empty list", { elicitations: [] }],
    ["too many links", { elicitations: Array.from({ length: MAX_REQUIRED_URLS + 1 }, (_, i) => ({ ...one, elicitationId: `e${i}` })) }],
    ["a form instead of a link", { elicitations: [{ ...one, mode: "form" }] }],
    ["a missing id", { elicitations: [{ mode: "url", message: "m", url: "https://github.com" }] }],
    ["an oversized URL", { elicitations: [{ ...one, url: `https://github.com/${"a".repeat(3000)}` }] }],
    [
      "a list under a prototype key",
      JSON.parse('{"__proto__": {"elicitations": [{"mode":"url","message":"m","url":"https://github.com","elicitationId":"e"}]}}'),
    ],
  ])("%s is malformed", (_label, data) => {
    expect(urlRequiredOf(new McpError(-32042, "x", data))).toBe("malformed");
  });

  it("other errors are not -32042", () => {
    expect(urlRequiredOf(new McpError(-32602, "x", { elicitations: [one] }))).toBeUndefined();
    expect(urlRequiredOf(new Error("-32042"))).toBeUndefined();
  });
});

describe("CompletionWatch", () => {
  it("a completion seen before the wait counts; an unknown id waits until aborted", async () => {
    const w = new CompletionWatch();
    w.completed("early");
    await expect(w.wait("early", 60_000, new AbortController().signal)).resolves.toBe(true);
    const abort = new AbortController();
    const pending = w.wait("never", 60_000, abort.signal);
    abort.abort();
    await expect(pending).resolves.toBe(false);
    const later = w.wait("later", 60_000, new AbortController().signal);
    w.completed("later");
    await expect(later).resolves.toBe(true);
  });
});

describe("ask budget", () => {
  it("allows MAX_ASKS_PER_CALL asks per call, then refuses; calls do not share a budget", () => {
    const a = {};
    const b = {};
    const got = Array.from({ length: MAX_ASKS_PER_CALL + 2 }, () => takeAsk(a));
    expect(got.filter(Boolean)).toHaveLength(MAX_ASKS_PER_CALL);
    expect(got.at(-1)).toBe(false);
    expect(takeAsk(b)).toBe(true);
  });

  it("bounds the size of one ask", () => {
    expect(withinAskSize({ message: "hi" })).toBe(true);
    expect(withinAskSize({ message: "x".repeat(MAX_ASK_BYTES) })).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(withinAskSize(cyclic)).toBe(false);
  });
});
