import { describe, expect, it } from "vitest";
import { conformanceFixturesEnabled } from "@/lib/workflows/conformance/enabled";
import { CONFORMANCE_FIXTURES } from "@/lib/workflows/conformance/fixtures";
import { servedWorkflows, WORKFLOWS } from "@/lib/workflows/registry";
import { lintFormRequest } from "@/lib/elicitation/lint";

describe("conformance fixtures", () => {
  it("are served only when explicitly enabled", () => {
    expect(servedWorkflows({})).toBe(WORKFLOWS);
    expect(servedWorkflows({ MCP_CONFORMANCE_FIXTURES: "false" })).toBe(WORKFLOWS);
    expect(servedWorkflows({ MCP_CONFORMANCE_FIXTURES: "true" }).map((w) => w.name)).toEqual(
      [...WORKFLOWS, ...CONFORMANCE_FIXTURES].map((w) => w.name),
    );
  });

  it("are refused in production, and a bad value names the variable", () => {
    expect(() => conformanceFixturesEnabled({ MCP_CONFORMANCE_FIXTURES: "true", APP_ENV: "production" })).toThrow(
      /refused with APP_ENV=production/,
    );
    expect(() => conformanceFixturesEnabled({ MCP_CONFORMANCE_FIXTURES: "yes" })).toThrow(/MCP_CONFORMANCE_FIXTURES must be true or false/);
  });

  it("ask only what the form linter allows, like any workflow", () => {
    for (const wf of CONFORMANCE_FIXTURES) {
      for (const need of wf.needs) {
        if (need.kind !== "field") continue;
        expect(lintFormRequest({ message: need.message, requestedSchema: need.schema }).verdict, `${wf.name}/${need.key}`).toBe("allow");
      }
    }
  });
});
