import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryText, queryTextSchema } from "@/lib/http/params";
import { recordFilterSchema } from "@/lib/elicitation/record-queries";
import { parseSearchParams } from "@/lib/http/search-params";
import { killSwitchReason } from "@/lib/policy/kill-switch";

// Free text that reaches a PostgreSQL text comparison or column: NUL makes the query fail with a
// server error, so every such field refuses control characters before the database sees them.
describe("free text from a request", () => {
  it.each(["\u0000", "a\u0000b", "\u0001", "tab\there", "line\nbreak", "\u007f", "\u009b"])("refuses %j", (v) => {
    expect(queryText(v)).toBeUndefined();
    expect(queryTextSchema().safeParse(v).success).toBe(false);
    expect(killSwitchReason.safeParse(`reason ${v} here`).success).toBe(false);
  });

  it("keeps ordinary text, including non-Latin and emoji", () => {
    for (const v of ["alice", "Клієнт 1.0", "Ärger", "🙂 user", "user@example.com"]) {
      expect(queryText(v)).toBe(v);
      expect(queryTextSchema().safeParse(v).success).toBe(true);
    }
  });

  it("bounds the length", () => {
    expect(queryText("a".repeat(200))).toBe("a".repeat(200));
    expect(queryText("a".repeat(201))).toBeUndefined();
    expect(queryTextSchema(5).safeParse("abcdef").success).toBe(false);
  });

  it("the records page refuses a filter carrying NUL instead of querying with it, and says so", () => {
    expect(parseSearchParams(recordFilterSchema, { client: "\u0000", flow: "x" })).toEqual({
      ok: false,
      data: { sort: "newest", flow: "x" },
      fieldErrors: { client: ["control characters are not allowed"] },
    });
    expect(parseSearchParams(recordFilterSchema, { client: "Claude", flow: "generate_report:claude-code" })).toMatchObject({
      ok: true,
      data: { client: "Claude", flow: "generate_report:claude-code" },
    });
    expect(z.object({ a: queryTextSchema() }).safeParse({ a: "ok" }).success).toBe(true);
  });
});
