// Flows: one per workflow x client name. A combination seen for the first time is created in the
// canary stage (FLOW_DEFAULT_CANARY_PERCENT of subjects, 100 by default) and needs gate evidence
// before promotion. Cohort membership is a stable hash of subject and flow.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { flows, type Flow } from "@/db/schema";

export const SERVER_VERSION = "0.1.0";

export function flowIdFor(workflow: string, clientName: string): string {
  return `${workflow}:${clientName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "unnamed"}`;
}

export function inCohort(subject: string, flowId: string, percent: number): boolean {
  const h = createHash("sha256").update(`${flowId}\u0000${subject}`).digest();
  return h.readUInt16BE(0) % 100 < percent;
}

export async function ensureFlow(db: DbOrTx, workflow: string, clientName: string, env = process.env): Promise<Flow> {
  const id = flowIdFor(workflow, clientName);
  const [existing] = await db.select().from(flows).where(eq(flows.id, id)).limit(1);
  if (existing) return existing;
  const inputs = { mcpRevision: "2025-11-25", sdk: "1.32", workflow, clientName, serverVersion: SERVER_VERSION };
  const percent = Math.min(100, Math.max(0, Number(env.FLOW_DEFAULT_CANARY_PERCENT ?? 100) || 0));
  await db
    .insert(flows)
    .values({ id, workflow, clientName, serverVersion: SERVER_VERSION, stage: "canary", canaryPercent: percent, fingerprint: createHash("sha256").update(JSON.stringify(inputs)).digest("hex"), fingerprintInputs: inputs, retestRequired: true })
    .onConflictDoNothing();
  const [row] = await db.select().from(flows).where(eq(flows.id, id)).limit(1);
  if (!row) throw new Error(`flow ${id} could not be created`);
  return row;
}
