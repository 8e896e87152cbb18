// The policy in force for one decision: kill switches that apply, the flow's stage and whether the
// subject is in its canary cohort. The switches come from a PolicySource: the server's is kept in
// memory and refreshed on the database's change notification, so a change made by any process or
// instance is seen by the next decision.
import type { Flow } from "@/db/schema";
import type { PolicyView } from "@/lib/elicitation/router";
import { inCohort } from "./flows";
import type { PolicySource } from "./policy-source";

export async function policyView(policy: PolicySource, flow: Flow, subject: string, upstream?: string): Promise<PolicyView> {
  const switches = await policy.killSwitches();
  return {
    flowId: flow.id,
    workflow: flow.workflow,
    flowStage: flow.stage,
    inCanaryCohort: flow.stage !== "canary" || inCohort(subject, flow.id, flow.canaryPercent),
    killed: switches.map((s) => ({ scope: s.scope, reason: s.reason })),
    ...(upstream ? { upstream } : {}),
  };
}
