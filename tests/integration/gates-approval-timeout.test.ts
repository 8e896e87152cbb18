// The new gate checks over real HTTP against the app's real routes and store: an approval flow's
// contract and recovery (decided by a second operator through the product's own decision), and
// the form timeout waited out. Each against the healthy app, then against the same app with the
// defect the check exists for (GATE_TEST_FAULTS), which it must catch; and an approver without the
// permission cannot make the gate pass.
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvals, flows } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide";
import { seedDemo } from "@/lib/demo/seed";
import { approvalChecks } from "@/lib/gates/approval-checks";
import { approvalRecovery } from "@/lib/gates/approval-recovery";
import type { GateApprover } from "@/lib/gates/approver";
import { clientVariantsFor } from "@/lib/gates/client-variants";
import type { GateContext } from "@/lib/gates/context";
import { timeoutCheck } from "@/lib/gates/contract-gate";
import { tokenSource } from "@/lib/gates/target";
import { gateTargetFor } from "@/lib/gates/target-from-settings";
import { gateOutcome } from "@/lib/gates/types";
import { servedWorkflows } from "@/lib/workflows/registry";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;

beforeAll(async () => {
  // Short enough to wait out, within the gate's default budget of 60 s.
  process.env.ELICITATION_TIMEOUT_SECONDS = "3";
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 1 });
  app = await startAppServer(t.store.db);
});
afterEach(() => {
  delete process.env.GATE_TEST_FAULTS;
});
afterAll(async () => {
  delete process.env.ELICITATION_TIMEOUT_SECONDS;
  await app?.close();
  await t?.dispose();
});

const approverAs = (subject: string): GateApprover => ({
  subject,
  decide: (db, id, decision, reason) => decideApproval(db, subject, { id, decision, reason }),
});

async function context(flowId: string, approver?: GateApprover): Promise<GateContext> {
  const [flow] = await t.store.db.select().from(flows).where(eq(flows.id, flowId));
  const target = gateTargetFor({ origin: app.baseUrl, db: t.store.db });
  return {
    flow: flow!,
    workflow: servedWorkflows().find((w) => w.name === flow!.workflow)!,
    profile: await clientVariantsFor(t.store.db, flow!),
    target,
    tokens: tokenSource(target, flow!, "claude-code"),
    runId: `it${Date.now()}`,
    ...(approver ? { approver } : {}),
  };
}

const summary = (checks: Array<{ name: string; outcome: string; detail: string }>) =>
  checks.map((c) => `${c.outcome}: ${c.name}: ${c.detail}`);

describe("approval flow purge_report_cache:claude-code", () => {
  it("passes contract and recovery with a second operator deciding; one execution per approval; nothing left pending", async () => {
    const ctx = await context("purge_report_cache:claude-code", approverAs("op-approver-0004"));
    const contract = (await Promise.all(ctx.profile.variants.map((v) => approvalChecks(ctx, v)))).flat();
    const recovery = await approvalRecovery(ctx);
    expect(summary([...contract, ...recovery]).filter((s) => !s.startsWith("passed"))).toEqual([]);
    expect(recovery.map((c) => c.name)).toEqual([
      "retry before the decision: the same request, nothing done",
      "approval decision lost: the approver decides again and is refused; decided once",
      "retries after the decision: executed exactly once",
      "retries racing the decision: executed exactly once",
    ]);
    // The state behind it: every approval the gate's subjects opened ended decided; the executed ones consumed once each.
    const rows = await t.store.db
      .select({ state: approvals.state, decidedBy: approvals.decidedBy })
      .from(approvals)
      .where(and(eq(approvals.kind, "workflow_action"), eq(approvals.flowId, "purge_report_cache:claude-code")));
    expect(rows.filter((r) => r.state === "pending")).toEqual([]);
    expect(rows.filter((r) => r.state === "consumed")).toHaveLength(2);
    expect(new Set(rows.map((r) => r.decidedBy))).toEqual(new Set(["op-approver-0004"]));
  });

  it("fails recovery against an app whose approval authorises every later run", async () => {
    process.env.GATE_TEST_FAULTS = "approval-not-consumed";
    const recovery = await approvalRecovery(await context("purge_report_cache:claude-code", approverAs("op-approver-0004")));
    expect(gateOutcome(recovery)).toMatchObject({
      outcome: "failed",
      reason: expect.stringMatching(
        /^retries after the decision: executed exactly once \(claude-code .*\): the second retry executed the action again/,
      ),
    });
  });

  it("an approver without the permission cannot make it pass: the decision is refused by the product", async () => {
    const recovery = await approvalRecovery(await context("purge_report_cache:claude-code", approverAs("op-viewer-0006")));
    expect(gateOutcome(recovery).outcome).toBe("failed");
    expect(recovery.find((c) => c.name.startsWith("approval decision lost"))).toMatchObject({
      outcome: "failed",
      detail: expect.stringMatching(/unexpected error/),
    });
    const approved = await t.store.db.select().from(approvals).where(eq(approvals.decidedBy, "op-viewer-0006"));
    expect(approved).toEqual([]);
  });
});

describe("the form timeout, waited out", () => {
  it("generate_report:claude-code: the call is told timed_out and the record ends timed_out", async () => {
    const ctx = await context("generate_report:claude-code");
    const v1 = ctx.profile.variants.find((v) => v.revision === "2025-11-25")!;
    const c = await timeoutCheck(ctx, v1);
    expect(c).toMatchObject({
      outcome: "passed",
      detail: expect.stringMatching(/^waited out the deployment's 3 s timeout .*record ended timed_out/),
    });
  });

  it("fails against an app that tells the call but leaves the record open", async () => {
    process.env.GATE_TEST_FAULTS = "timeout-not-recorded";
    const ctx = await context("generate_report:claude-code");
    const c = await timeoutCheck(
      ctx,
      ctx.profile.variants.find((v) => v.revision === "2025-11-25")!,
    );
    expect(c).toMatchObject({ outcome: "failed", detail: "the call was told timed_out but the record is sent" });
  });
});
