// Flows: one per workflow x client profile, id `workflow:profile`. The profile comes from the
// verified access token's client id (lib/policy/client-profiles.ts); clientInfo name, version and
// declared capabilities are observations only and never select, create or reset a flow. A flow
// seen for the first time enters at FLOW_NEW_STAGE (off by default) with an audit entry, and needs
// gate evidence before promotion. Cohort membership is a stable hash of subject and flow.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { flows, type Flow } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { newFlowStage } from "./new-flow-stage";
import { flowIdFor } from "./profile-id";

export const SERVER_VERSION = "0.1.0";

export function inCohort(subject: string, flowId: string, percent: number): boolean {
  const h = createHash("sha256").update(`${flowId}\u0000${subject}`).digest();
  return h.readUInt16BE(0) % 100 < percent;
}

export interface InitialFingerprint {
  fingerprint: string;
  inputs: Record<string, unknown>;
}

export async function findFlow(db: DbOrTx, flowId: string): Promise<Flow | undefined> {
  const [row] = await db.select().from(flows).where(eq(flows.id, flowId)).limit(1);
  return row;
}

/** The flow for a workflow and a (verified) profile, created at FLOW_NEW_STAGE on first use. */
export async function ensureFlow(
  db: DbOrTx,
  workflow: string,
  profileId: string,
  initial: InitialFingerprint,
  env = process.env,
): Promise<Flow> {
  const id = flowIdFor(workflow, profileId);
  const existing = await findFlow(db, id);
  if (existing) return existing;
  const entry = newFlowStage(env);
  await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(flows)
      .values({
        id,
        workflow,
        profileId,
        serverVersion: SERVER_VERSION,
        stage: entry.stage,
        canaryPercent: entry.canaryPercent,
        fingerprint: initial.fingerprint,
        fingerprintInputs: initial.inputs,
        retestRequired: true,
      })
      .onConflictDoNothing()
      .returning({ id: flows.id });
    // Only the creator writes the entry: a concurrent first call that lost the race adds nothing.
    if (created)
      await appendAudit(tx, {
        actorType: "system",
        actorId: "engine",
        action: AUDIT_ACTIONS.flowCreated,
        targetType: "flow",
        targetId: id,
        detail: { workflow, profile: profileId, stage: entry.stage, canary_percent: entry.canaryPercent, fingerprint: initial.fingerprint },
      });
  });
  const row = await findFlow(db, id);
  if (!row) throw new Error(`flow ${id} could not be created`);
  return row;
}
