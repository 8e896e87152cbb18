// The policy in force for one decision: kill switches that apply, the flow's stage and whether the
// subject is in its canary cohort. Read from the store on every decision, so a change made by any
// process or instance is seen by the next decision (the kill-switch table is a handful of rows).
import type { DbOrTx } from "@/db/client";
import type { Flow } from "@/db/schema";
import type { PolicyView } from "@/lib/elicitation/router";
import { inCohort } from "./flows";
import { activeKillSwitches } from "./kill-switch";

export async function policyView(db: DbOrTx, flow: Flow, subject: string): Promise<PolicyView> {
  const switches = await activeKillSwitches(db);
  return {
    flowId: flow.id,
    flowStage: flow.stage,
    inCanaryCohort: flow.stage !== "canary" || inCohort(subject, flow.id, flow.canaryPercent),
    killed: switches.map((s) => ({ scope: s.scope, reason: s.reason })),
  };
}
