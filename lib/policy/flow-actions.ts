import { z } from "zod";
import type { OperatorActionSpec } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { applyPromotion, PromotionError, requestPromotion, rollbackFlow } from "./promotion";

export const flowActionInput = z.object({
  flowId: z.string().min(1).max(200),
  op: z.enum(["request", "apply", "rollback"]),
  reason: z.string().trim().max(200).optional(),
});

export const flowAction: OperatorActionSpec<typeof flowActionInput, { message: string }> = {
  // Releasers request, apply (after a different approver approved) and roll back.
  permission: PERMISSIONS.promotionRequest,
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
    if (!reason) throw new PromotionError("a reason is required");
    const r = await rollbackFlow(db, operator.subject, input.flowId, reason);
    return { message: `rolled back; ${r.revoked} unfinished handle(s) revoked` };
  },
};
