// The approval gate for consequential workflow actions. A workflow never asks for approval in a
// form: it opens a request that an approver decides in the console or with `ctl approvals`, and a
// retried call proceeds only once approved, consuming the approval so it authorises one run.
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { approvals, type Approval } from "@/db/schema";
import { gateFault } from "@/lib/config/gate-faults";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";

export type GateOutcome =
  | { state: "approved"; approval: Approval }
  | { state: "pending"; approval: Approval; created: boolean }
  | { state: "rejected"; approval: Approval };

/**
 * Looks for this subject's request for `action`: an approved one is consumed and returned;
 * a pending one is returned as is; otherwise a new pending request is opened (and audited).
 */
export async function passApprovalGate(
  db: Db,
  q: { subject: string; tenantId: string; action: string; flowId: string; reason: string },
): Promise<GateOutcome> {
  return db.transaction(async (tx) => {
    const [latest] = await tx
      .select()
      .from(approvals)
      .where(
        and(
          eq(approvals.kind, "workflow_action"),
          eq(approvals.action, q.action),
          eq(approvals.requestedBy, q.subject),
          eq(approvals.tenantId, q.tenantId),
          inArray(approvals.state, ["pending", "approved", "rejected"]),
        ),
      )
      .orderBy(desc(approvals.createdAt))
      .limit(1)
      .for("update");
    if (latest?.state === "approved") {
      // A deliberate defect, only under GATE_TEST_FAULTS (refused in production): the recovery gate must catch it.
      if (!gateFault("approval-not-consumed")) await tx.update(approvals).set({ state: "consumed" }).where(eq(approvals.id, latest.id));
      await appendAudit(tx, {
        actorType: "subject",
        actorId: q.subject,
        action: AUDIT_ACTIONS.approvalConsumed,
        targetType: "approval",
        targetId: latest.id,
        detail: { action: q.action },
      });
      return { state: "approved", approval: latest };
    }
    if (latest?.state === "pending") return { state: "pending", approval: latest, created: false };
    // A rejection is reported once; the next call opens a fresh request.
    if (latest?.state === "rejected") {
      await tx.update(approvals).set({ state: "superseded" }).where(eq(approvals.id, latest.id));
      return { state: "rejected", approval: latest };
    }
    const [created] = await tx
      .insert(approvals)
      .values({
        id: `apr_${randomBytes(8).toString("hex")}`,
        kind: "workflow_action",
        action: q.action,
        requestedBy: q.subject,
        requestedByType: "subject",
        tenantId: q.tenantId,
        flowId: q.flowId,
        reason: q.reason,
      })
      .returning();
    await appendAudit(tx, {
      actorType: "subject",
      actorId: q.subject,
      action: AUDIT_ACTIONS.approvalRequested,
      targetType: "approval",
      targetId: created!.id,
      detail: { action: q.action, tenant: q.tenantId },
    });
    return { state: "pending", approval: created!, created: true };
  });
}
