// What a gate says when it cannot do its job, without a deployment: the approval flow's recovery
// and rejection need a second operator; the form timeout longer than the budget is "not run" with
// both numbers; a place to search that the deployment has but the gate cannot read fails as
// "could not run" (never a silent pass), while a place the deployment lacks is not applicable.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch } from "@/lib/gates/browser";
import { placeOutcome, searchForCanary } from "@/lib/gates/canary-search";
import type { GateContext } from "@/lib/gates/context";
import { contractGate, timeoutCheck } from "@/lib/gates/contract-gate";
import { recoveryGate } from "@/lib/gates/recovery-gate";
import type { GateTarget } from "@/lib/gates/target";
import { gateTargetFor } from "@/lib/gates/target-from-settings";
import { gatePassed } from "@/lib/gates/types";
import { accessibilityGate } from "@/lib/gates/accessibility-gate";
import { generateReport } from "@/lib/workflows/generate-report";
import { purgeReportCache } from "@/lib/workflows/purge-report-cache";
import { gateContext, unreachableTarget } from "../helpers/gate-context";

const ctx = (workflow: GateContext["workflow"], over: Partial<GateTarget> = {}): GateContext =>
  gateContext(workflow, {
    profile: {
      profileId: "claude-code",
      source: "profile-default",
      variants: [{ name: "claude-code", version: "2.0.37", revision: "2025-11-25", elicitation: {} }],
    },
    target: unreachableTarget(over),
    fresh: async () => {
      throw new Error("no network in this test");
    },
  });

describe("approval flows without a second operator", () => {
  it("recovery could not run and says how to give one; accessibility is not applicable with its reason", async () => {
    const browser = await launch("/nonexistent/chromium");
    const recovery = await recoveryGate(ctx(purgeReportCache), "op-releaser-0003", browser);
    expect(recovery).toMatchObject({ outcome: "could_not_run", reason: expect.stringMatching(/second operator.*--approver-session/) });
    expect(gatePassed(recovery)).toBe(false);
    const a11y = await accessibilityGate(ctx(purgeReportCache), "op-releaser-0003", browser);
    expect(a11y).toMatchObject({ outcome: "not_applicable", reason: expect.stringMatching(/opens no page/) });
  });
});

describe("the form timeout", () => {
  it("longer than the budget: not run, naming the timeout and the budget (no wait)", async () => {
    const c = await timeoutCheck(ctx(generateReport), ctx(generateReport).profile.variants[0]!);
    expect(c).toMatchObject({
      outcome: "not_applicable",
      detail: expect.stringMatching(/^not run: the form timeout is 600 s, longer than the gate's budget of 60 s/),
    });
  });
  it("within the budget it is driven (here it fails: there is no deployment), never skipped", async () => {
    const c = await timeoutCheck(ctx(generateReport, { formTimeoutSeconds: 5 }), ctx(generateReport).profile.variants[0]!);
    expect(c.outcome).toBe("failed");
  });
  it("the console and ctl read the same budget and timeout from the settings", () => {
    const t = gateTargetFor(
      { origin: "https://staging.example.com/anything" },
      {
        ELICITATION_TIMEOUT_SECONDS: "20",
        GATES_TIMEOUT_BUDGET_SECONDS: "45",
        GATES_LOG_FILE: "/var/log/eg.log",
        METRICS_TOKEN: "m".repeat(32),
      },
    );
    expect(t).toMatchObject({
      baseUrl: "https://staging.example.com",
      mcpUrl: "https://staging.example.com/api/mcp",
      formTimeoutSeconds: 20,
      timeoutBudgetSeconds: 45,
      logFile: "/var/log/eg.log",
      metricsToken: "m".repeat(32),
    });
    expect(gateTargetFor({ origin: "https://s.example", logFile: "/tmp/x.log" }, { GATES_LOG_FILE: "/var/log/eg.log" }).logFile).toBe(
      "/tmp/x.log",
    );
  });
});

describe("places the privacy gate searches", () => {
  let server: http.Server;
  let base = "";
  let metrics: { status: number; body: string } = { status: 200, body: "" };
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(metrics.status).end(metrics.body));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const outcomes = async (over: Partial<GateTarget>) =>
    Object.fromEntries(
      (await searchForCanary(unreachableTarget({ baseUrl: base, ...over }), "GATECANARYx", "op")).map((p) => [
        p.place.split(" ")[0],
        placeOutcome(p),
      ]),
    );

  it("no store, no log file, traces sent to a collector: each could not run, none passes", async () => {
    metrics = { status: 401, body: "unauthorized" };
    expect(await outcomes({ tracesExportedTo: "http://collector:4318" })).toEqual({
      store: "could_not_run",
      audit: "could_not_run",
      fresh: "could_not_run",
      logs: "could_not_run",
      metrics: "could_not_run",
      traces: "could_not_run",
    });
  });

  it("metrics switched off and no trace exporter at the deployment: not applicable; a metrics leak fails", async () => {
    metrics = { status: 404, body: "metrics are disabled: set METRICS_TOKEN" };
    expect(await outcomes({})).toMatchObject({ metrics: "not_applicable", traces: "not_applicable" });
    metrics = { status: 200, body: 'x{answer="GATECANARYx"} 1' };
    expect(await outcomes({ metricsToken: "t".repeat(32) })).toMatchObject({ metrics: "failed" });
    metrics = { status: 200, body: "x 1" };
    expect(await outcomes({ metricsToken: "t".repeat(32) })).toMatchObject({ metrics: "passed" });
  });
});

describe("contract of an approval flow without a second operator", () => {
  it("the rejection check could not run (the gate fails), it does not pass", async () => {
    const c = ctx(purgeReportCache);
    c.tokens = { ...c.tokens, fresh: async () => ({ token: "t", subject: "s" }) };
    const g = await contractGate(c);
    expect(g.checks.find((x) => x.name.startsWith("rejected by the second operator"))).toMatchObject({
      outcome: "could_not_run",
      detail: expect.stringMatching(/second operator/),
    });
    expect(gatePassed(g)).toBe(false);
  });
});
