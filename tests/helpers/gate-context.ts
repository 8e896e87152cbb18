// A gate's context for the unit tests that run gates without a deployment: a promoted flow of the
// workflow for the profile, a target nothing answers on (port 9, a Chromium path that does not
// exist) and given tokens. Each test names the profile it runs as and what it changes.
import type { Flow } from "@/db/schema";
import type { GateContext } from "@/lib/gates/context";
import type { GateTarget } from "@/lib/gates/target";

/** A target nothing answers on, with a ten-minute form timeout inside a one-minute budget unless changed. */
export const unreachableTarget = (over: Partial<GateTarget> = {}): GateTarget => ({
  baseUrl: "http://127.0.0.1:9",
  mcpUrl: "http://127.0.0.1:9/api/mcp",
  chromiumPath: "/nonexistent/chromium",
  formTimeoutSeconds: 600,
  timeoutBudgetSeconds: 60,
  ...over,
});

export interface GateContextOptions {
  profile: GateContext["profile"];
  /** The whole target; `unreachableTarget()` when left out. */
  target?: GateTarget;
  /** Where the gate gets a fresh end-user token; a fixed one when left out. */
  fresh?: GateContext["tokens"]["fresh"];
}

/** The promoted flow of a workflow for a profile, as the flows table holds it. */
export const promotedFlow = (workflow: string, profileId: string): Flow =>
  ({
    id: `${workflow}:${profileId}`,
    workflow,
    profileId,
    serverVersion: "0.1.0",
    stage: "promoted",
    canaryPercent: 0,
    fingerprint: "fp",
    fingerprintInputs: {},
    retestRequired: false,
    setupUrl: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  }) as Flow;

export function gateContext(workflow: GateContext["workflow"], options: GateContextOptions): GateContext {
  return {
    flow: promotedFlow(workflow.name, options.profile.profileId),
    workflow,
    profile: options.profile,
    target: options.target ?? unreachableTarget(),
    tokens: {
      kind: "given",
      fresh: options.fresh ?? (async () => ({ token: "t", subject: "s" })),
      forAccount: async () => "t",
      user: null,
      other: null,
      noUser: "no user",
    },
    runId: "r",
  };
}
