// The console's "Run gates" control: a releaser runs the five gates of one flow against this very
// deployment (its own origin, its own store, its own signing key). The wrapper checks the
// permission on the server and audits a denial; the run audits its start before driving anything
// and records every gate with its evidence in one transaction at the end.
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { OperatorControl } from "@/lib/controls/control";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { loadSigner } from "@/lib/audit/signing";
import { appUrl } from "@/lib/auth/oidc-config";
import { FLOW_ID_PATTERN } from "@/lib/policy/flow-actions";
import { GateRunError, runGates } from "./run-gates";
import { gateTargetFor } from "./target-from-settings";

export const gateRunInput = z.object({ flowId: z.string().regex(FLOW_ID_PATTERN, "a flow id is workflow:profile") });

export const gateRunAction: OperatorControl<typeof gateRunInput, { message: string }> = {
  name: "run-gates",
  permission: PERMISSIONS.promotionRequest,
  audit: [AUDIT_ACTIONS.gateRunStarted, AUDIT_ACTIONS.gateRecorded],
  schema: gateRunInput,
  target: (input) => ({ type: "flow", id: input.flowId }),
  expected: [GateRunError],
  run: async ({ db, operator, input }) => {
    const origin = new URL(appUrl()).origin;
    // The same places, settings and budget as `ctl gates run` (lib/gates/target-from-settings.ts).
    const target = gateTargetFor({ origin, db });
    const run = await runGates(db, { flowId: input.flowId, actor: operator.subject, target, signer: loadSigner() });
    const failed = run.evidence.gates.filter((g) => g.outcome === "failed" || g.outcome === "could_not_run");
    return {
      message: failed.length
        ? `gates ran: ${failed.map((g) => `${g.gate} ${g.outcome.replace(/_/g, " ")}`).join(", ")} (evidence ${run.hash.slice(0, 12)})`
        : `all gates passed (evidence ${run.hash.slice(0, 12)})`,
    };
  },
};
