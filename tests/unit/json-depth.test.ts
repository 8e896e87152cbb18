// Request bodies nested deeper than the limit are refused before anything walks them recursively,
// and client-declared names are bounded before they are stored.
import { describe, expect, it } from "vitest";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@/lib/http/json-depth";
import { CLIENT_NAME_MAX, observedText } from "@/lib/http/observed-text";

const nestedArrays = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n));
const nestedObjects = (n: number) => JSON.parse('{"a":'.repeat(n) + "1" + "}".repeat(n));

describe("JSON depth", () => {
  it("accepts ordinary messages and refuses the attack's nesting, arrays and objects alike", () => {
    expect(jsonDepthExceeds({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: { a: [1, { b: 2 }] } } })).toBe(
      false,
    );
    expect(jsonDepthExceeds(nestedArrays(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nestedArrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(nestedArrays(5000))).toBe(true);
    expect(jsonDepthExceeds(nestedObjects(20_000))).toBe(true);
  });
});

describe("observed client text", () => {
  it("bounds length, drops control and format characters, never stores an empty name", () => {
    expect(observedText("x".repeat(500_000), CLIENT_NAME_MAX)).toHaveLength(CLIENT_NAME_MAX);
    expect(observedText("Visual\u202eStudio\u200b Code\n", CLIENT_NAME_MAX)).toBe("VisualStudio Code");
    expect(observedText("\u200b", CLIENT_NAME_MAX)).toBe("unknown");
    expect(observedText("😀".repeat(300), 10)).toBe("😀".repeat(10));
  });
});
