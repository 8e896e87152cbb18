// Deciding an approval: an approver (checked on the server) approves or rejects with a reason,
// never their own request. One transaction with its audit entry.
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { approvals, type Approval } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { authorize } from "@/lib/auth/authorize";
import { PERMISSIONS } from "@/lib/auth/permissions";

export class ApprovalError extends Error {
  override name = "ApprovalError";
}

export const decisionInput = z.object({
  id: z.string().regex(/^apr_[0-9a-f]{16}$/),
  decision: z.enum(["approve", "reject"]),
  reason: z.string().trim().min(3).max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE),
});

export async function decideApproval(db: Db, approver: string, input: z.infer<typeof decisionInput>): Promise<Approval> {
  const { id, decision, reason } = decisionInput.parse(input);
  const [current] = await db.select().from(approvals).where(eq(approvals.id, id)).limit(1);
  if (!current) throw new ApprovalError(`approval ${id} does not exist`);
  await authorize(db, approver, current.kind === "promotion" ? PERMISSIONS.promotionApprove : PERMISSIONS.workflowApprove, {
    type: "approval",
    id,
  });
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(approvals).where(eq(approvals.id, id)).for("update");
    if (!row || row.state !== "pending") throw new ApprovalError(`approval ${id} is ${row?.state ?? "gone"}, not pending`);
    if (row.requestedBy === approver) throw new ApprovalError("nobody approves their own request");
    const [updated] = await tx
      .update(approvals)
      .set({ state: decision === "approve" ? "approved" : "rejected", decidedBy: approver, decidedAt: new Date(), decisionReason: reason })
      .where(eq(approvals.id, id))
      .returning();
    await appendAudit(tx, {
      actorType: "operator",
      actorId: approver,
      action: decision === "approve" ? AUDIT_ACTIONS.approvalApproved : AUDIT_ACTIONS.approvalRejected,
      targetType: "approval",
      targetId: id,
      detail: { kind: row.kind, action: row.action, requested_by: row.requestedBy, reason },
    });
    return updated!;
  });
}

export async function pendingApprovals(db: Db) {
  return db.select().from(approvals).where(eq(approvals.state, "pending")).orderBy(approvals.createdAt);
}
