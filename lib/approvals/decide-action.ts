// The console's approve/reject control. decideApproval checks the permission (by kind) itself and
// refuses one's own request; this spec only demands that the caller is an operator who may read.
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ApprovalError, decideApproval, decisionInput } from "./decide";

export const decideAction: OperatorControl<typeof decisionInput, { state: string }> = {
  name: "decide-approval",
  permission: PERMISSIONS.healthRead,
  audit: [AUDIT_ACTIONS.approvalApproved, AUDIT_ACTIONS.approvalRejected],
  schema: decisionInput,
  target: (input) => ({ type: "approval", id: input.id }),
  expected: [ApprovalError],
  run: async ({ db, operator, input }) => ({ state: (await decideApproval(db, operator.subject, input)).state }),
};
