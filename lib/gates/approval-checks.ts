// Contract checks of an approval step, per client variant: the call never asks in a form whatever
// the client declares, it opens exactly one approval request, a retry before the decision reports
// the same request, and a rejection by the second operator ends the call as rejected, nothing done.
import { variantLabel, type ClientVariant } from "./client-variants";
import type { GateContext } from "./context";
import { approvalsOf, NO_APPROVER, rejectLeftovers } from "./approval-store";
import { withSession } from "./mcp-session";
import { expectThat, runCheck, type CheckResult } from "./types";

export async function approvalChecks(ctx: GateContext, v: ClientVariant): Promise<CheckResult[]> {
  const label = variantLabel(v);
  const name = ctx.workflow.name;
  const out: CheckResult[] = [];
  out.push(
    await runCheck(
      "approval step: no form, one approval request, the same one on a retry before the decision",
      async () => {
        const { token, subject } = await ctx.tokens.fresh("apr");
        const db = ctx.target.db;
        try {
          return await withSession(
            ctx.target.mcpUrl,
            token,
            v,
            () => ({ action: "accept", content: {} }),
            async (s) => {
              const first = await s.call(name);
              expectThat(
                s.received.length === 0,
                `the client was sent ${s.received.length} elicitation(s): an approval is never asked in a form`,
              );
              expectThat(
                first.structured.outcome === "approval_pending" && typeof first.structured.approval === "string",
                `expected approval_pending naming the request, got ${String(first.structured.outcome)}`,
              );
              const again = await s.call(name);
              expectThat(
                again.structured.outcome === "approval_pending" && again.structured.approval === first.structured.approval,
                `the retry before the decision ended ${String(again.structured.outcome)} (${String(again.structured.approval)}), expected the same pending request ${String(first.structured.approval)}`,
              );
              if (!db) return "no form; approval_pending, the same request on retry (store not reachable: rows not counted)";
              const rows = await approvalsOf(db, subject);
              expectThat(
                rows.length === 1 && rows[0]!.state === "pending" && rows[0]!.flowId === ctx.flow.id,
                `${rows.length} approval request(s) in the store (${rows.map((r) => r.state).join(", ")}), expected one pending request of this flow`,
              );
              return "no form; approval_pending, the same request on retry; one pending request in the store";
            },
          );
        } finally {
          if (db) await rejectLeftovers(ctx, db, subject);
        }
      },
      label,
    ),
  );
  out.push(
    await runCheck(
      "rejected by the second operator: the call ends approval_rejected, nothing done",
      async () => {
        const db = ctx.target.db;
        if (!ctx.approver) return { outcome: "could_not_run", detail: NO_APPROVER };
        if (!db)
          return { outcome: "could_not_run", detail: "could not run: the decision is taken on the target's store (no DATABASE_URL given)" };
        const { token, subject } = await ctx.tokens.fresh("rej");
        try {
          return await withSession(
            ctx.target.mcpUrl,
            token,
            v,
            () => ({ action: "cancel" }),
            async (s) => {
              const first = await s.call(name);
              const id = String(first.structured.approval);
              expectThat(
                first.structured.outcome === "approval_pending",
                `expected approval_pending, got ${String(first.structured.outcome)}`,
              );
              await ctx.approver!.decide(db, id, "reject", `release gate run ${ctx.runId}: contract check of a rejection`);
              const after = await s.call(name);
              expectThat(
                after.structured.outcome === "approval_rejected" && after.structured.approval === id && after.isError,
                `after the rejection the call ended ${String(after.structured.outcome)}, expected approval_rejected for ${id}`,
              );
              const rows = await approvalsOf(db, subject);
              expectThat(
                !rows.some((r) => r.state === "approved" || r.state === "consumed"),
                "a rejected request was approved or executed",
              );
              return `rejected by ${ctx.approver!.subject}: the call ended approval_rejected, nothing executed`;
            },
          );
        } finally {
          await rejectLeftovers(ctx, db, subject);
        }
      },
      label,
    ),
  );
  return out;
}
