// Without Chromium the accessibility gate is a failure that says so ("could not run: no browser"),
// never a pass; a form-only flow is not applicable whatever the browser, with its reason.
import { describe, expect, it } from "vitest";
import { accessibilityGate } from "@/lib/gates/accessibility-gate";
import { launch } from "@/lib/gates/browser";
import type { GateContext } from "@/lib/gates/context";
import { recoveryGate } from "@/lib/gates/recovery-gate";
import { gatePassed } from "@/lib/gates/types";
import { generateReport } from "@/lib/workflows/generate-report";
import { listRepositories } from "@/lib/workflows/list-repositories";
import { gateContext, unreachableTarget } from "../helpers/gate-context";

// A profile that declares both form and URL mode.
const ctx = (workflow: GateContext["workflow"]): GateContext =>
  gateContext(workflow, {
    profile: {
      profileId: "visual-studio-code",
      source: "profile-default",
      variants: [{ name: "Visual Studio Code", version: "1.106.2", revision: "2025-11-25", elicitation: { form: {}, url: {} } }],
    },
    target: unreachableTarget({ baseUrl: "http://localhost:9", mcpUrl: "http://localhost:9/api/mcp" }),
  });

describe("gates without a browser", () => {
  it("launch says could not run: no browser", async () => {
    expect(await launch("/nonexistent/chromium")).toMatch(/^could not run: no browser \(Chromium not found at \/nonexistent\/chromium/);
  });

  it("accessibility and recovery of a URL flow fail as could_not_run", async () => {
    const browser = await launch("/nonexistent/chromium");
    const a11y = await accessibilityGate(ctx(listRepositories), "op-releaser-0003", browser);
    expect(a11y).toMatchObject({ gate: "accessibility", outcome: "could_not_run", reason: expect.stringMatching(/no browser/) });
    expect(gatePassed(a11y)).toBe(false);
    const recovery = await recoveryGate(ctx(listRepositories), "op-releaser-0003", browser);
    expect(recovery).toMatchObject({ outcome: "could_not_run", reason: expect.stringMatching(/no browser/) });
    expect(gatePassed(recovery)).toBe(false);
  });

  it("a form-only flow is not applicable for both, with the reason", async () => {
    const browser = await launch("/nonexistent/chromium");
    const a11y = await accessibilityGate(ctx(generateReport), "op-releaser-0003", browser);
    const recovery = await recoveryGate(ctx(generateReport), "op-releaser-0003", browser);
    expect(a11y).toMatchObject({ outcome: "not_applicable", reason: expect.stringMatching(/opens no page/) });
    expect(recovery).toMatchObject({ outcome: "not_applicable", reason: expect.stringMatching(/form-only flow/) });
    expect(gatePassed(a11y) && gatePassed(recovery)).toBe(true);
  });
});
