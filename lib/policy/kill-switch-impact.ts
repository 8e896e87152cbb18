// What engaging a kill switch would do right now, for the confirmation step: how many unfinished
// URL handles and how many form requests in flight it revokes (lib/policy/kill-switch.ts). Besides
// global and per mode, one entry per workflow (`workflow:NAME`, every client profile's flow).
import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords, flows } from "@/db/schema";
import { UNFINISHED } from "@/lib/elicitation/record-states";

export interface KillSwitchImpact {
  scope: string;
  urlHandlesRevoked: number;
  formRequestsRevoked: number;
}

export async function killSwitchImpact(db: Db): Promise<KillSwitchImpact[]> {
  const [rows, byWorkflow, workflows] = await Promise.all([
    db
      .select({ mode: elicitationRecords.mode, n: count() })
      .from(elicitationRecords)
      .where(inArray(elicitationRecords.state, [...UNFINISHED]))
      .groupBy(elicitationRecords.mode),
    db
      .select({ workflow: flows.workflow, mode: elicitationRecords.mode, n: count() })
      .from(elicitationRecords)
      .innerJoin(flows, eq(flows.id, elicitationRecords.flowId))
      .where(inArray(elicitationRecords.state, [...UNFINISHED]))
      .groupBy(flows.workflow, elicitationRecords.mode),
    db.selectDistinct({ workflow: flows.workflow }).from(flows).orderBy(flows.workflow),
  ]);
  const url = Number(rows.find((r) => r.mode === "url")?.n ?? 0);
  const form = Number(rows.find((r) => r.mode === "form")?.n ?? 0);
  const of = (workflow: string, mode: "url" | "form") => Number(byWorkflow.find((r) => r.workflow === workflow && r.mode === mode)?.n ?? 0);
  return [
    { scope: "global", urlHandlesRevoked: url, formRequestsRevoked: form },
    { scope: "mode:form", urlHandlesRevoked: 0, formRequestsRevoked: form },
    { scope: "mode:url", urlHandlesRevoked: url, formRequestsRevoked: 0 },
    ...workflows.map(({ workflow }) => ({
      scope: `workflow:${workflow}`,
      urlHandlesRevoked: of(workflow, "url"),
      formRequestsRevoked: of(workflow, "form"),
    })),
  ];
}
