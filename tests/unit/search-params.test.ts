import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeRefusal, MAX_VALUE, parseSearchParams } from "@/lib/http/search-params";

const schema = z.object({
  state: z.enum(["open", "closed"]).optional(),
  text: z.string().max(200).optional(),
  sort: z.enum(["newest", "oldest"]).default("newest"),
  before: z.coerce.number().int().min(1).optional(),
});

describe("parseSearchParams", () => {
  it("parses a Next.js searchParams object and applies defaults", () => {
    expect(parseSearchParams(schema, { state: "open", before: "42" })).toEqual({
      ok: true,
      data: { state: "open", sort: "newest", before: 42 },
    });
  });

  it("parses URLSearchParams the same way", () => {
    expect(parseSearchParams(schema, new URLSearchParams("state=closed&sort=oldest"))).toEqual({
      ok: true,
      data: { state: "closed", sort: "oldest" },
    });
  });

  it("treats an empty value as not given (an HTML GET form sends unset fields so)", () => {
    expect(parseSearchParams(schema, { state: "", text: "" })).toEqual({ ok: true, data: { sort: "newest" } });
  });

  it("refuses a bad value by name, keeps the good ones and never echoes the value", () => {
    const r = parseSearchParams(schema, { state: "<script>bogus</script>", text: "fine", sort: "oldest" });
    expect(r.ok).toBe(false);
    expect(r.data).toEqual({ text: "fine", sort: "oldest" });
    if (r.ok) throw new Error("unreachable");
    expect(Object.keys(r.fieldErrors)).toEqual(["state"]);
    expect(describeRefusal(r.fieldErrors)).toMatch(/^state: /);
    expect(describeRefusal(r.fieldErrors)).not.toContain("bogus");
  });

  it("refuses a repeated parameter, in both input shapes", () => {
    for (const raw of [{ state: ["open", "closed"] }, new URLSearchParams("state=open&state=closed")]) {
      const r = parseSearchParams(schema, raw);
      expect(r).toEqual({ ok: false, data: { sort: "newest" }, fieldErrors: { state: ["given more than once"] } });
    }
  });

  it("refuses an oversized value before the schema sees it", () => {
    const r = parseSearchParams(schema, { text: "x".repeat(MAX_VALUE + 1) });
    expect(r).toEqual({ ok: false, data: { sort: "newest" }, fieldErrors: { text: [`longer than ${MAX_VALUE} characters`] } });
    const r2 = parseSearchParams(schema, { text: "x".repeat(201) });
    expect(r2.ok).toBe(false);
    expect(r2.data).toEqual({ sort: "newest" });
  });

  it("refuses NUL, other C0/C1 controls and DEL in any parameter", () => {
    for (const bad of ["\u0000", "a\u0001b", "x\u007f", "\u0085", "tab\there"]) {
      const r = parseSearchParams(schema, { text: bad });
      expect(r.ok).toBe(false);
      expect(r.data).toEqual({ sort: "newest" });
    }
  });

  it("ignores prototype keys and parameters the schema does not name", () => {
    const raw = JSON.parse('{"__proto__": {"state": "open"}, "constructor": "x", "toString": "y", "state": "closed"}') as Record<
      string,
      string
    >;
    expect(parseSearchParams(schema, raw)).toEqual({ ok: true, data: { state: "closed", sort: "newest" } });
    expect(parseSearchParams(schema, new URLSearchParams("__proto__=1&constructor=2&hasOwnProperty=3"))).toEqual({
      ok: true,
      data: { sort: "newest" },
    });
    // An inherited property is never read as a parameter.
    const inherited = Object.create({ state: "open" }) as Record<string, string>;
    expect(parseSearchParams(schema, inherited)).toEqual({ ok: true, data: { sort: "newest" } });
    expect(({} as Record<string, unknown>).state).toBeUndefined();
  });

  it("refuses a number that does not fit the schema", () => {
    for (const before of ["-1", "1e309", "NaN", "99999999999999999999999.5", "abc"]) {
      const r = parseSearchParams(schema, { before });
      expect(r.ok, before).toBe(false);
      expect(r.data).toEqual({ sort: "newest" });
    }
  });

  it("throws when the schema's defaults do not parse (a schema bug, not bad input)", () => {
    const broken = z.object({ must: z.string() });
    expect(() => parseSearchParams(broken, {})).toThrow();
  });
});
