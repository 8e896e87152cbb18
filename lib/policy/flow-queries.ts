// Console reads of flows: the flows page's URL state (stage, workflow, client profile) and the
// filtered list. One flow per workflow x profile, so the table grows with every client; the
// filters are exact matches, the workflow one on the (workflow, profile) unique index.
import { and, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { flows, flowStage, type Flow } from "@/db/schema";
import { profileIdSchema, workflowNameSchema } from "./profile-id";

/** The stages a flow can be in (the schema's enum), for the console's filter. */
export const FLOW_STAGES = flowStage.enumValues;

export const flowFilterSchema = z.object({
  stage: z.enum(FLOW_STAGES).optional(),
  workflow: workflowNameSchema.optional(),
  /** The client profile (what selects a flow), not a name a client declared. */
  client: profileIdSchema.optional(),
});

export type FlowFilters = z.infer<typeof flowFilterSchema>;

export async function listFlows(db: DbOrTx, f: FlowFilters): Promise<Flow[]> {
  const conds: SQL[] = [];
  if (f.stage) conds.push(eq(flows.stage, f.stage));
  if (f.workflow) conds.push(eq(flows.workflow, f.workflow));
  if (f.client) conds.push(eq(flows.profileId, f.client));
  return db
    .select()
    .from(flows)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(flows.workflow, flows.profileId);
}

/** The workflows and profiles that have a flow, for the filter menus. */
export async function flowFilterChoices(db: DbOrTx): Promise<{ workflows: string[]; clients: string[] }> {
  const [workflows, clients] = await Promise.all([
    db.selectDistinct({ v: flows.workflow }).from(flows).orderBy(flows.workflow),
    db.selectDistinct({ v: flows.profileId }).from(flows).orderBy(flows.profileId),
  ]);
  return { workflows: workflows.map((r) => r.v), clients: clients.map((r) => r.v) };
}
