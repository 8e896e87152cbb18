// Every case in the shared form fixtures (copied into tests/fixtures) gets its expected verdict.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintFormRequest } from "@/lib/elicitation/lint";

const fixtures = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/form-requests.json"), "utf8")) as {
  cases: Array<{ name: string; expect: "allow" | "block"; request: unknown }>;
};

describe("form linter against the fixtures", () => {
  it("has cases on both sides", () => {
    expect(fixtures.cases.filter((c) => c.expect === "allow").length).toBeGreaterThan(3);
    expect(fixtures.cases.filter((c) => c.expect === "block").length).toBeGreaterThan(3);
  });
  it.each(fixtures.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const result = lintFormRequest(c.request);
    expect(result.verdict, JSON.stringify(result.reasons)).toBe(c.expect);
    if (c.expect === "block") expect(result.reasons.length).toBeGreaterThan(0);
  });
});
