import path from "node:path";
import { describe, expect, it } from "vitest";
import { redactUrl, storeConfigFromEnv } from "@/db/config";
import { declaredModes } from "@/lib/elicitation/capabilities";

describe("store configuration", () => {
  it("uses PostgreSQL when DATABASE_URL is set", () => {
    expect(storeConfigFromEnv({ DATABASE_URL: "postgres://u:p@db:5432/x" })).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/x",
      poolMax: 10,
    });
  });

  it("falls back to PGlite in DATA_DIR, defaulting to .data", () => {
    expect(storeConfigFromEnv({ DATABASE_URL: "  " })).toEqual({ kind: "pglite", dataDir: path.resolve(".data", "pglite") });
    expect(storeConfigFromEnv({ DATA_DIR: "/tmp/x" })).toEqual({ kind: "pglite", dataDir: "/tmp/x/pglite" });
  });

  it("rejects a nonsensical pool size", () => {
    expect(() => storeConfigFromEnv({ DATABASE_URL: "postgres://x/y", DATABASE_POOL_MAX: "0" })).toThrow(/DATABASE_POOL_MAX/);
  });

  it("never prints the password", () => {
    expect(redactUrl("postgres://user:hunter2@db:5432/x")).not.toContain("hunter2");
  });
});

describe("declared elicitation modes", () => {
  it.each([
    [{}, { form: false, url: false }],
    [{ elicitation: {} }, { form: true, url: false }],
    [{ elicitation: { form: {} } }, { form: true, url: false }],
    [{ elicitation: { url: {} } }, { form: false, url: true }],
    [{ elicitation: { form: {}, url: {} } }, { form: true, url: true }],
  ])("%j -> %j", (caps, expected) => {
    expect(declaredModes(caps)).toEqual(expected);
  });
});
