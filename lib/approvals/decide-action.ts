// The console's approve/reject control. decideApproval checks the permission (by kind) itself and
// refuses one's own request; this spec only demands that the caller is an operator who may read.
import type { OperatorActionSpec } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ApprovalError, decideApproval, decisionInput } from "./decide";

export const decideAction: OperatorActionSpec<typeof decisionInput, { state: string }> = {
  permission: PERMISSIONS.healthRead,
  schema: decisionInput,
  target: (input) => ({ type: "approval", id: input.id }),
  expected: [ApprovalError],
  run: async ({ db, operator, input }) => ({ state: (await decideApproval(db, operator.subject, input)).state }),
};
