import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { applyPromotion, PromotionError, requestPromotion, rollbackFlow, rollbackWorkflow, setCanary } from "./promotion";
import { PROFILE_ID_PATTERN, WORKFLOW_NAME_PATTERN } from "./profile-id";

// Flow ids are `workflow:profile`; anything else names no flow and is refused before any lookup.
export const FLOW_ID_PATTERN = new RegExp(`^${WORKFLOW_NAME_PATTERN.source.slice(1, -1)}:${PROFILE_ID_PATTERN.source.slice(1, -1)}$`);

export const flowActionInput = z.object({
  flowId: z.string().regex(FLOW_ID_PATTERN, "a flow id is workflow:profile"),
  op: z.enum(["request", "apply", "rollback", "canary"]),
  reason: z.string().trim().max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE).optional(),
  // Only for op=canary: digits only, so "100%" or "1e2" is an error, not a silent number.
  canaryPercent: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .string()
      .regex(/^(0|[1-9][0-9]?|100)$/, "the canary share is a whole number from 0 to 100")
      .transform(Number)
      .optional(),
  ),
});

export const flowAction: OperatorControl<typeof flowActionInput, { message: string }> = {
  name: "flow-stage",
  // Releasers request, apply (after a different approver approved) and roll back.
  permission: PERMISSIONS.promotionRequest,
  audit: [
    AUDIT_ACTIONS.flowPromotionRequested,
    AUDIT_ACTIONS.flowPromoted,
    AUDIT_ACTIONS.flowCanarySet,
    AUDIT_ACTIONS.flowRolledBack,
    AUDIT_ACTIONS.recordRevoked,
  ],
  schema: flowActionInput,
  target: (input) => ({ type: "flow", id: input.flowId }),
  expected: [PromotionError],
  run: async ({ db, operator, input }) => {
    const reason = input.reason && input.reason.length >= 3 ? input.reason : undefined;
    if (input.op === "request") {
      if (!reason) throw new PromotionError("a reason is required");
      const a = await requestPromotion(db, operator.subject, input.flowId, reason);
      return { message: `promotion requested (${a.id}); an approver decides it in Approvals` };
    }
    if (input.op === "apply") {
      await applyPromotion(db, operator.subject, input.flowId);
      return { message: "promoted" };
    }
    if (input.op === "canary") {
      if (!reason) throw new PromotionError("a reason is required");
      if (input.canaryPercent === undefined) throw new PromotionError("say which share of subjects the canary admits (0 to 100)");
      const r = await setCanary(db, operator.subject, input.flowId, input.canaryPercent, reason);
      return { message: `canary at ${r.canaryPercent}%` };
    }
    if (!reason) throw new PromotionError("a reason is required");
    const r = await rollbackFlow(db, operator.subject, input.flowId, reason);
    return { message: `rolled back; ${r.revoked} unfinished handle(s) revoked` };
  },
};

export const workflowRollbackInput = z.object({
  workflow: z.string().regex(WORKFLOW_NAME_PATTERN, "a workflow name is lower-case letters, digits and underscores"),
  reason: z.string().trim().min(3, "a reason is required").max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE),
});

export const workflowRollbackAction: OperatorControl<typeof workflowRollbackInput, { message: string }> = {
  name: "rollback-workflow",
  // One decision for every client of a workflow: rolls back each of its flows.
  permission: PERMISSIONS.flowRollback,
  audit: [AUDIT_ACTIONS.flowRolledBack, AUDIT_ACTIONS.recordRevoked],
  schema: workflowRollbackInput,
  target: (input) => ({ type: "workflow", id: input.workflow }),
  expected: [PromotionError],
  run: async ({ db, operator, input }) => {
    const r = await rollbackWorkflow(db, operator.subject, input.workflow, input.reason);
    return { message: `rolled back ${r.flows.length} flow(s) of ${r.workflow}; ${r.revoked} unfinished handle(s) revoked` };
  },
};
