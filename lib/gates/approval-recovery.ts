// Recovery of an approval step, decided by the second operator through the product's own decision
// (lib/gates/approver.ts). In order: the client retries before the decision (the same request,
// nothing done); the approver's decision is lost on their side and they decide again (refused: it
// is decided once); the client retries after it (executed once) and again (no second execution).
// Racing: the decision and two retries at the same moment, then one more retry. Each ends with
// exactly one approval request executed, once (one approval.consumed entry in the audit log).
import type { Db } from "@/db/client";
import { ApprovalError } from "@/lib/approvals/decide";
import { variantLabel } from "./client-variants";
import type { GateContext } from "./context";
import { approvalsOf, consumptions, NO_APPROVER, rejectLeftovers } from "./approval-store";
import { withSession, type CallResult } from "./mcp-session";
import { expectThat, runCheck, type CheckResult } from "./types";

const executed = (r: CallResult) => r.structured.outcome === "completed";

export async function approvalRecovery(ctx: GateContext): Promise<CheckResult[]> {
  const approver = ctx.approver;
  const db = ctx.target.db;
  if (!approver) return [{ name: "approval recovery", outcome: "could_not_run", detail: NO_APPROVER, ms: 0 }];
  if (!db)
    return [
      {
        name: "approval recovery",
        outcome: "could_not_run",
        detail: "could not run: 'exactly one execution' is counted in the target's store and audit log (no DATABASE_URL given)",
        ms: 0,
      },
    ];
  const variant = ctx.profile.variants.find((v) => v.revision === "2025-11-25") ?? ctx.profile.variants[0];
  if (!variant)
    return [{ name: "approval recovery", outcome: "could_not_run", detail: "could not run: the flow has no client variant", ms: 0 }];
  const label = variantLabel(variant);
  const reason = (what: string) => `release gate run ${ctx.runId}: ${what}`;
  const checks: CheckResult[] = [];

  const { token, subject } = await ctx.tokens.fresh("arec");
  let id = "";
  await withSession(
    ctx.target.mcpUrl,
    token,
    variant,
    () => ({ action: "cancel" }),
    async (s) => {
      checks.push(
        await runCheck(
          "retry before the decision: the same request, nothing done",
          async () => {
            const first = await s.call(ctx.workflow.name);
            const again = await s.call(ctx.workflow.name);
            id = String(first.structured.approval);
            expectThat(
              first.structured.outcome === "approval_pending" && again.structured.outcome === "approval_pending",
              `the calls ended ${String(first.structured.outcome)} and ${String(again.structured.outcome)}, expected approval_pending twice`,
            );
            expectThat(
              again.structured.approval === id,
              `the retry opened another request (${String(again.structured.approval)} after ${id})`,
            );
            const rows = await approvalsOf(db, subject);
            expectThat(rows.length === 1, `${rows.length} approval requests in the store, expected one`);
            return `one pending request ${id}`;
          },
          label,
        ),
        await runCheck(
          "approval decision lost: the approver decides again and is refused; decided once",
          async () => {
            expectThat(id.startsWith("apr_"), "no request to decide");
            await approver.decide(db, id, "approve", reason("approval of a test request"));
            // The approver never saw the answer and decides again: the product must not decide twice.
            const second = await approver.decide(db, id, "approve", reason("the same decision, repeated")).then(
              () => "accepted",
              (err: unknown) => (err instanceof ApprovalError ? "refused" : `failed: ${(err as Error).message}`),
            );
            expectThat(second === "refused", `the repeated decision was ${second}, expected refused`);
            const rows = await approvalsOf(db, subject);
            expectThat(
              rows.length === 1 && rows[0]!.state === "approved",
              `requests after the decision: ${rows.map((r) => r.state).join(", ")}; expected one, approved`,
            );
            return `approved by ${approver.subject} once; the repeated decision refused`;
          },
          label,
        ),
        await runCheck(
          "retries after the decision: executed exactly once",
          async () => {
            const after = await s.call(ctx.workflow.name);
            const again = await s.call(ctx.workflow.name);
            expectThat(executed(after), `the first retry after the approval ended ${String(after.structured.outcome)}, expected completed`);
            expectThat(!executed(again), "the second retry executed the action again on the same approval");
            const n = await consumptions(db, id);
            expectThat(n === 1, `${n} approval.consumed entries for ${id}, expected exactly one`);
            return `executed once (approval ${id} consumed once); the next retry ended ${String(again.structured.outcome)}`;
          },
          label,
        ),
      );
    },
  );
  await rejectLeftovers(ctx, db, subject);

  checks.push(await racing(ctx, db, label, reason));
  return checks;
}

/** The decision and two retries at the same moment, then one more retry: one execution in all. */
async function racing(ctx: GateContext, db: Db, label: string, reason: (what: string) => string): Promise<CheckResult> {
  const approver = ctx.approver!;
  const variant = ctx.profile.variants.find((v) => v.revision === "2025-11-25") ?? ctx.profile.variants[0]!;
  const { token, subject } = await ctx.tokens.fresh("arace");
  try {
    return await runCheck(
      "retries racing the decision: executed exactly once",
      async () =>
        withSession(
          ctx.target.mcpUrl,
          token,
          variant,
          () => ({ action: "cancel" }),
          async (s) => {
            const first = await s.call(ctx.workflow.name);
            const id = String(first.structured.approval);
            expectThat(
              first.structured.outcome === "approval_pending",
              `the first call ended ${String(first.structured.outcome)}, expected approval_pending`,
            );
            const [, a, b] = await Promise.all([
              approver.decide(db, id, "approve", reason("approval racing retries")),
              s.call(ctx.workflow.name),
              s.call(ctx.workflow.name),
            ]);
            const last = await s.call(ctx.workflow.name);
            const runs = [a, b, last].filter(executed).length;
            expectThat(runs === 1, `${runs} of the three retries executed the action, expected exactly one`);
            const n = await consumptions(db, id);
            expectThat(n === 1, `${n} approval.consumed entries for ${id}, expected exactly one`);
            return `three retries around the decision: one execution, approval ${id} consumed once`;
          },
        ),
      label,
    );
  } finally {
    await rejectLeftovers(ctx, db, subject);
  }
}
