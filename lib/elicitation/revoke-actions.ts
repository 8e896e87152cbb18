// The console's revoke control: single or bulk, a reason required, checked and audited.
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { RECORD_ID_PATTERN } from "./records";
import { revokeRecords } from "./revoke";

export const revokeInput = z.object({
  ids: z.array(z.string().regex(RECORD_ID_PATTERN)).min(1).max(500),
  reason: z.string().trim().min(3, "a reason is required").max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE),
});

export const revokeAction: OperatorControl<typeof revokeInput, { revoked: number }> = {
  name: "revoke-records",
  permission: PERMISSIONS.recordsRevoke,
  audit: [AUDIT_ACTIONS.recordRevoked],
  revalidate: ["/console/records"],
  fromForm: (form) => ({ ids: form.getAll("ids"), reason: form.get("reason") }),
  schema: revokeInput,
  target: (input) => ({ type: "elicitation", id: input.ids.length === 1 ? input.ids[0]! : `${input.ids.length} records` }),
  run: async ({ db, operator, input }) => ({
    revoked: (await revokeRecords(db, { type: "operator", id: operator.subject }, { ids: input.ids }, input.reason)).length,
  }),
};
