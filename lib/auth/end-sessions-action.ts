// The console's "end this operator's sessions" control (admins): every live browser session of the
// subject ends on the server at once; the cookies they hold stop working on the next request.
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { z } from "zod";
import { endSessionsOf } from "./console-sessions";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "./permissions";

export const endSessionsInput = z.object({
  subject: z.string().trim().min(1).max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE),
  reason: z.string().trim().min(3, "a reason is required").max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE),
});

export const endSessionsAction: OperatorControl<typeof endSessionsInput, { ended: number }> = {
  name: "end-sessions",
  permission: PERMISSIONS.operatorsManage,
  audit: [AUDIT_ACTIONS.operatorSessionsEnded],
  revalidate: ["/console/operators"],
  schema: endSessionsInput,
  target: (input) => ({ type: "operator", id: input.subject }),
  run: ({ db, operator, input }) => endSessionsOf(db, operator.subject, input.subject, input.reason),
};
