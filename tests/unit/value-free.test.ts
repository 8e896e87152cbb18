import { describe, expect, it } from "vitest";
import { assertValueFree, ValueLeakError } from "@/lib/audit/value-free";

describe("audit details are value-free", () => {
  it("accepts names, keywords, counts and hashes", () => {
    expect(() =>
      assertValueFree({ fields: ["to", "from"], keyword: "range", count: 3, ok: true, schema_sha256: "ab".repeat(32), from: null }),
    ).not.toThrow();
  });

  it.each(["value", "content", "answer", "token", "access_token", "password", "apiKey", "api_key", "secret", "card_number", "email"])(
    "refuses the key %s",
    (key) => {
      expect(() => assertValueFree({ [key]: "x" })).toThrow(ValueLeakError);
    },
  );

  it("refuses nested objects and long free text", () => {
    expect(() => assertValueFree({ nested: { a: 1 } as unknown as string })).toThrow(ValueLeakError);
    expect(() => assertValueFree({ note: "x".repeat(201) })).toThrow(ValueLeakError);
    expect(() => assertValueFree({ list: [1 as unknown as string] })).toThrow(ValueLeakError);
  });
});
