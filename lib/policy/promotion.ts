// Canary promotion and rollback. A releaser requests; a different approver approves; the
// promotion is applied only while the approval's fingerprint is still the flow's and all five gates
// pass against it (re-checked at apply time). Rollback blocks new elicitation for the flow,
// revokes its unfinished handles and leaves reconciliation of what already happened working; a
// workflow can be rolled back across every client profile at once. Releasers may also set a
// flow's canary share (how a flow that entered at FLOW_NEW_STAGE=off is first admitted).
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { approvals, flows, type Flow } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit, appendAuditBatch } from "@/lib/audit/writer";
import { revokeRecordsTx } from "@/lib/elicitation/revoke";
import { activeProfileMap } from "./client-profiles";
import { gatesBlocking, gateStatus } from "./gates";
import { flowIdFor, UNREGISTERED_PROFILE, workflowNameSchema } from "./profile-id";

export class PromotionError extends Error {
  override name = "PromotionError";
}

async function lockFlow(tx: Tx, flowId: string) {
  const [flow] = await tx.select().from(flows).where(eq(flows.id, flowId)).for("update");
  if (!flow) throw new PromotionError(`flow ${flowId} does not exist`);
  return flow;
}

export async function requestPromotion(db: Db, releaser: string, flowId: string, reason: string) {
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, flowId);
    if (flow.stage === "promoted") throw new PromotionError(`flow ${flowId} is already promoted`);
    await tx
      .update(approvals)
      .set({ state: "superseded" })
      .where(and(eq(approvals.flowId, flowId), eq(approvals.kind, "promotion"), inArray(approvals.state, ["pending", "approved"])));
    const [row] = await tx
      .insert(approvals)
      .values({
        id: `apr_${randomBytes(8).toString("hex")}`,
        kind: "promotion",
        action: "promote",
        flowId,
        requestedBy: releaser,
        requestedByType: "operator",
        reason,
        fingerprint: flow.fingerprint,
      })
      .returning();
    await appendAudit(tx, {
      actorType: "operator",
      actorId: releaser,
      action: AUDIT_ACTIONS.flowPromotionRequested,
      targetType: "flow",
      targetId: flowId,
      detail: { approval: row!.id, fingerprint: flow.fingerprint, reason },
    });
    return row!;
  });
}

export async function applyPromotion(db: Db, actor: string, flowId: string) {
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, flowId);
    const [approval] = await tx
      .select()
      .from(approvals)
      .where(and(eq(approvals.flowId, flowId), eq(approvals.kind, "promotion"), eq(approvals.state, "approved")))
      .orderBy(desc(approvals.createdAt))
      .limit(1);
    if (!approval) throw new PromotionError("no approved promotion request for this flow");
    if (approval.fingerprint !== flow.fingerprint)
      throw new PromotionError("the flow changed since the approval: request and approve again");
    const blocking = gatesBlocking(await gateStatus(tx, flow));
    if (blocking.length) throw new PromotionError(`gates not passing for the current version: ${blocking.join(", ")}`);
    await tx.update(flows).set({ stage: "promoted", retestRequired: false, updatedAt: new Date() }).where(eq(flows.id, flowId));
    await tx.update(approvals).set({ state: "consumed" }).where(eq(approvals.id, approval.id));
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.flowPromoted,
      targetType: "flow",
      targetId: flowId,
      detail: { approval: approval.id, approved_by: approval.decidedBy, fingerprint: flow.fingerprint },
    });
    return { flowId, stage: "promoted" as const };
  });
}

export async function rollbackFlow(db: Db, releaser: string, flowId: string, reason: string) {
  return db.transaction(async (tx) => {
    await lockFlow(tx, flowId);
    await tx.update(flows).set({ stage: "rolled_back", updatedAt: new Date() }).where(eq(flows.id, flowId));
    await tx
      .update(approvals)
      .set({ state: "superseded" })
      .where(and(eq(approvals.flowId, flowId), eq(approvals.kind, "promotion"), inArray(approvals.state, ["pending", "approved"])));
    const revoked = await revokeRecordsTx(tx, { type: "operator", id: releaser }, { pending: { flowId } }, `rollback: ${reason}`);
    await appendAudit(tx, {
      actorType: "operator",
      actorId: releaser,
      action: AUDIT_ACTIONS.flowRolledBack,
      targetType: "flow",
      targetId: flowId,
      detail: { reason, revoked: revoked.length },
    });
    return { flowId, stage: "rolled_back" as const, revoked: revoked.length };
  });
}

export async function setCanary(db: Db, releaser: string, flowId: string, percent: number, reason: string) {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new PromotionError("the canary share is a whole number from 0 to 100");
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, flowId);
    await tx.update(flows).set({ stage: "canary", canaryPercent: percent, updatedAt: new Date() }).where(eq(flows.id, flowId));
    await appendAudit(tx, {
      actorType: "operator",
      actorId: releaser,
      action: AUDIT_ACTIONS.flowCanarySet,
      targetType: "flow",
      targetId: flowId,
      detail: { reason, percent, from_stage: flow.stage, from_percent: flow.canaryPercent },
    });
    return { flowId, stage: "canary" as const, canaryPercent: percent };
  });
}

// A flow created by a workflow rollback has not been fingerprinted yet; the first call that
// resolves it computes the real one (and marks it for retest, as any change does).
const UNFINGERPRINTED = { fingerprint: "not-yet-computed", inputs: {} };

/**
 * Rolls back every flow of a workflow, whichever client: the flows that exist, and a rolled-back
 * flow for every mapped profile and "unregistered" that has none yet, so a client that
 * re-registers or is mapped to another profile cannot walk around it. Profiles mapped later start
 * at FLOW_NEW_STAGE; the `workflow:NAME` kill switch covers those too.
 */
export async function rollbackWorkflow(db: Db, releaser: string, workflow: string, reason: string) {
  const name = workflowNameSchema.safeParse(workflow);
  if (!name.success) throw new PromotionError(name.error.issues[0]?.message ?? "invalid workflow name");
  return db.transaction(async (tx) => {
    const existing = await tx.select().from(flows).where(eq(flows.workflow, name.data)).for("update");
    // A typo must not create flows for a workflow that never ran.
    if (existing.length === 0) throw new PromotionError(`workflow ${name.data} has no flows`);
    const profiles = new Set([...(await activeProfileMap(tx)).values(), UNREGISTERED_PROFILE]);
    for (const f of existing) profiles.delete(f.profileId);
    const template: Flow = existing[0]!;
    const missing = [...profiles].map((profileId) => ({
      id: flowIdFor(name.data, profileId),
      workflow: name.data,
      profileId,
      serverVersion: template.serverVersion,
      stage: "rolled_back" as const,
      canaryPercent: 0,
      fingerprint: UNFINGERPRINTED.fingerprint,
      fingerprintInputs: UNFINGERPRINTED.inputs,
      retestRequired: true,
      setupUrl: template.setupUrl,
    }));
    if (missing.length) await tx.insert(flows).values(missing).onConflictDoNothing();
    const ids = [...existing.map((f) => f.id), ...missing.map((f) => f.id)];
    await tx.update(flows).set({ stage: "rolled_back", updatedAt: new Date() }).where(inArray(flows.id, ids));
    await tx
      .update(approvals)
      .set({ state: "superseded" })
      .where(and(inArray(approvals.flowId, ids), eq(approvals.kind, "promotion"), inArray(approvals.state, ["pending", "approved"])));
    const revoked = await revokeRecordsTx(
      tx,
      { type: "operator", id: releaser },
      { pending: { workflow: name.data } },
      `rollback of workflow ${name.data}: ${reason}`,
    );
    await appendAuditBatch(
      tx,
      ids.map((id) => ({
        actorType: "operator" as const,
        actorId: releaser,
        action: AUDIT_ACTIONS.flowRolledBack,
        targetType: "flow",
        targetId: id,
        detail: { reason, workflow: name.data, workflow_rollback: true, revoked: revoked.length },
      })),
    );
    return { workflow: name.data, flows: ids.sort(), revoked: revoked.length };
  });
}

/** A change to anything in the fingerprint marks the flow for retest and resets its approvals. */
export async function updateFingerprint(db: Db, flowId: string, fingerprint: string, inputs: Record<string, unknown>) {
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, flowId);
    if (flow.fingerprint === fingerprint) return false;
    await tx
      .update(flows)
      .set({ fingerprint, fingerprintInputs: inputs, retestRequired: true, updatedAt: new Date() })
      .where(eq(flows.id, flowId));
    await tx
      .update(approvals)
      .set({ state: "superseded" })
      .where(and(eq(approvals.flowId, flowId), eq(approvals.kind, "promotion"), inArray(approvals.state, ["pending", "approved"])));
    await appendAudit(tx, {
      actorType: "system",
      actorId: "engine",
      action: AUDIT_ACTIONS.flowRetestRequired,
      targetType: "flow",
      targetId: flowId,
      detail: { from: flow.fingerprint, to: fingerprint },
    });
    return true;
  });
}
