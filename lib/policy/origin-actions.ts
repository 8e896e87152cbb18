import { z } from "zod";
import type { OperatorActionSpec } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { addOrigin, addOriginInput, disableOrigin, OriginError } from "./origins";

export const addOriginAction: OperatorActionSpec<typeof addOriginInput, { origin: string; redirectUris: string[] }> = {
  permission: PERMISSIONS.originsManage,
  schema: addOriginInput,
  target: (input) => ({ type: "origin", id: String(input.redirectUris[0] ?? "new") }),
  expected: [OriginError],
  run: ({ db, operator, input }) => addOrigin(db, operator.subject, input),
};

const disableInput = z.object({ origin: z.string().url() });

export const disableOriginAction: OperatorActionSpec<typeof disableInput, { origin: string }> = {
  permission: PERMISSIONS.originsManage,
  schema: disableInput,
  target: (input) => ({ type: "origin", id: input.origin }),
  expected: [OriginError],
  run: ({ db, operator, input }) => disableOrigin(db, operator.subject, input.origin),
};
