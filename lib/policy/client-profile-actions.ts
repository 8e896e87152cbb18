// Console specs for client profiles: admins map OAuth client ids to profiles and remove mappings.
import type { OperatorActionSpec } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ClientProfileError, removeClientProfile, removeClientProfileInput, setClientProfile, setClientProfileInput } from "./client-profiles";

export const setClientProfileAction: OperatorActionSpec<typeof setClientProfileInput, { clientId: string; profileId: string }> = {
  permission: PERMISSIONS.clientProfilesManage,
  schema: setClientProfileInput,
  target: (input) => ({ type: "client_profile", id: input.clientId }),
  expected: [ClientProfileError],
  run: async ({ db, operator, input }) => {
    const row = await setClientProfile(db, operator.subject, input);
    return { clientId: row.clientId, profileId: row.profileId };
  },
};

export const removeClientProfileAction: OperatorActionSpec<typeof removeClientProfileInput, { clientId: string }> = {
  permission: PERMISSIONS.clientProfilesManage,
  schema: removeClientProfileInput,
  target: (input) => ({ type: "client_profile", id: input.clientId }),
  expected: [ClientProfileError],
  run: async ({ db, operator, input }) => ({ clientId: (await removeClientProfile(db, operator.subject, input)).clientId }),
};
