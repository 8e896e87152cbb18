import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { addOrigin, addOriginInput, disableOrigin, OriginError } from "./origins";

export const addOriginAction: OperatorControl<typeof addOriginInput, { origin: string; redirectUris: string[] }> = {
  name: "add-origin",
  permission: PERMISSIONS.originsManage,
  audit: [AUDIT_ACTIONS.originAdded],
  revalidate: ["/console/origins"],
  schema: addOriginInput,
  target: (input) => ({ type: "origin", id: String(input.redirectUris[0] ?? "new") }),
  expected: [OriginError],
  run: ({ db, operator, input }) => addOrigin(db, operator.subject, input),
};

const disableInput = z.object({ origin: z.string().url() });

export const disableOriginAction: OperatorControl<typeof disableInput, { origin: string }> = {
  name: "disable-origin",
  permission: PERMISSIONS.originsManage,
  audit: [AUDIT_ACTIONS.originRemoved],
  revalidate: ["/console/origins"],
  schema: disableInput,
  target: (input) => ({ type: "origin", id: input.origin }),
  expected: [OriginError],
  run: ({ db, operator, input }) => disableOrigin(db, operator.subject, input.origin),
};
