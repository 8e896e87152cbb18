// Console specs for client profiles: admins map OAuth client ids to profiles and remove mappings.
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import {
  ClientProfileError,
  removeClientProfile,
  removeClientProfileInput,
  setClientProfile,
  setClientProfileInput,
} from "./client-profiles";

export const setClientProfileAction: OperatorControl<typeof setClientProfileInput, { clientId: string; profileId: string }> = {
  name: "set-client-profile",
  permission: PERMISSIONS.clientProfilesManage,
  audit: [AUDIT_ACTIONS.clientProfileSet],
  schema: setClientProfileInput,
  target: (input) => ({ type: "client_profile", id: input.clientId }),
  expected: [ClientProfileError],
  run: async ({ db, operator, input }) => {
    const row = await setClientProfile(db, operator.subject, input);
    return { clientId: row.clientId, profileId: row.profileId };
  },
};

export const removeClientProfileAction: OperatorControl<typeof removeClientProfileInput, { clientId: string }> = {
  name: "remove-client-profile",
  permission: PERMISSIONS.clientProfilesManage,
  audit: [AUDIT_ACTIONS.clientProfileRemoved],
  schema: removeClientProfileInput,
  target: (input) => ({ type: "client_profile", id: input.clientId }),
  expected: [ClientProfileError],
  run: async ({ db, operator, input }) => ({ clientId: (await removeClientProfile(db, operator.subject, input)).clientId }),
};
