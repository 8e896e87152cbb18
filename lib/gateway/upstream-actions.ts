// Console specs for the upstream registry (admins): add, update and remove, each checked, parsed
// and audited through lib/controls/run-control.ts like every other control.
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { addUpstream, removeUpstream, updateUpstream, UpstreamError } from "./registry";
import { upstreamFromForm } from "./upstream-form";
import { upstreamInput, upstreamRemoveInput, upstreamUpdateInput } from "./upstream-input";

export const addUpstreamAction: OperatorControl<typeof upstreamInput, { id: string }> = {
  name: "add-upstream",
  permission: PERMISSIONS.upstreamsManage,
  audit: [AUDIT_ACTIONS.upstreamAdded],
  fromForm: upstreamFromForm,
  schema: upstreamInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await addUpstream(db, operator.subject, input)).id }),
};

export const updateUpstreamAction: OperatorControl<typeof upstreamUpdateInput, { id: string }> = {
  name: "update-upstream",
  permission: PERMISSIONS.upstreamsManage,
  audit: [AUDIT_ACTIONS.upstreamUpdated],
  schema: upstreamUpdateInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await updateUpstream(db, operator.subject, input)).id }),
};

export const removeUpstreamAction: OperatorControl<typeof upstreamRemoveInput, { id: string }> = {
  name: "remove-upstream",
  permission: PERMISSIONS.upstreamsManage,
  audit: [AUDIT_ACTIONS.upstreamRemoved],
  fromForm: (form) => ({ id: form.get("id") }),
  schema: upstreamRemoveInput,
  target: (input) => ({ type: "upstream", id: input.id }),
  expected: [UpstreamError],
  run: async ({ db, operator, input }) => ({ id: (await removeUpstream(db, operator.subject, input)).id }),
};
