// What the approval gates read back from the target's store: the approval requests a test subject
// opened, and how many times each was consumed (one consumption = one execution of the action).
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { approvals, auditLog } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { GateContext } from "./context";

export const NO_APPROVER =
  "could not run: an approval is decided by a second operator, and none was given: run `ctl gates run --approver-session FILE` with that operator's own ctl login (a run from the console has no second operator)";

export async function approvalsOf(db: Db, subject: string) {
  return db
    .select({ id: approvals.id, state: approvals.state, flowId: approvals.flowId })
    .from(approvals)
    .where(and(eq(approvals.requestedBy, subject), eq(approvals.kind, "workflow_action")));
}

export async function consumptions(db: Db, approvalId: string): Promise<number> {
  const rows = await db
    .select({ seq: auditLog.seq })
    .from(auditLog)
    .where(and(eq(auditLog.action, AUDIT_ACTIONS.approvalConsumed), eq(auditLog.targetId, approvalId)));
  return rows.length;
}

/** Ends the test subject's still-pending requests (rejected by the approver, saying why). */
export async function rejectLeftovers(ctx: GateContext, db: Db, subject: string): Promise<void> {
  if (!ctx.approver) return;
  for (const a of await approvalsOf(db, subject)) {
    if (a.state === "pending")
      await ctx.approver.decide(db, a.id, "reject", `release gate run ${ctx.runId}: test request ended`).catch(() => {});
  }
}
