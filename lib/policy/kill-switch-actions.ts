// Console and API specs for the kill switch: the permission, the input schema, the service call.
import { z } from "zod";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { engageKillSwitch, KillSwitchError, killSwitchReason, killSwitchScope, releaseKillSwitch } from "./kill-switch";

export const killSwitchInput = z.object({
  scope: killSwitchScope,
  action: z.enum(["engage", "release"]),
  reason: killSwitchReason,
  expiresInMinutes: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .optional(),
  ),
});

export const killSwitchAction: OperatorControl<typeof killSwitchInput, { state: string; scope: string }> = {
  name: "kill-switch",
  permission: PERMISSIONS.killSwitchChange,
  audit: [AUDIT_ACTIONS.killSwitchOn, AUDIT_ACTIONS.killSwitchReleaseRequested, AUDIT_ACTIONS.killSwitchOff, AUDIT_ACTIONS.recordRevoked],
  revalidate: ["/console"],
  schema: killSwitchInput,
  target: (input) => ({ type: "kill_switch", id: input.scope }),
  expected: [KillSwitchError],
  run: async ({ db, operator, input }) => {
    const actor = { type: "operator" as const, id: operator.subject };
    if (input.action === "engage") {
      const expiresAt = input.expiresInMinutes ? new Date(Date.now() + input.expiresInMinutes * 60_000) : undefined;
      await engageKillSwitch(db, actor, { scope: input.scope, reason: input.reason, expiresAt });
      return { state: "engaged", scope: input.scope };
    }
    return releaseKillSwitch(db, actor, { scope: input.scope, reason: input.reason });
  },
};
