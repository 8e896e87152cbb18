// Console specs for the upstream registry (admins): add, update and remove, each checked, parsed
// and audited through lib/auth/operator-action.ts like every other control.
import type { OperatorActionSpec } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { addUpstream, removeUpstream, updateUpstream, UpstreamError } from "./registry";
import { upstreamInput, upstreamRemoveInput, upstreamUpdateInput } from "./upstream-input";

export const addUpstreamAction: OperatorActionSpec<typeof upstreamInput, { id: string }> = {
  permission: PERMISSIONS.upstreamsManage,
  schema: upstreamInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await addUpstream(db, operator.subject, input)).id }),
};

export const updateUpstreamAction: OperatorActionSpec<typeof upstreamUpdateInput, { id: string }> = {
  permission: PERMISSIONS.upstreamsManage,
  schema: upstreamUpdateInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await updateUpstream(db, operator.subject, input)).id }),
};

export const removeUpstreamAction: OperatorActionSpec<typeof upstreamRemoveInput, { id: string }> = {
  permission: PERMISSIONS.upstreamsManage,
  schema: upstreamRemoveInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await removeUpstream(db, operator.subject, input)).id }),
};
