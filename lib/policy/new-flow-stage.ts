// How a flow seen for the first time enters: FLOW_NEW_STAGE. `off` (the default) admits nobody
// until an operator sets a canary or promotes it; `canary:N` admits N% of subjects (0..100). A flow
// is only ever created for a verified client profile, so this is the one place a new client's
// first call is decided. A bad value is an error naming the variable, never a silent 0.
import type { Env } from "@/db/config";

export type NewFlowStage = { stage: "off"; canaryPercent: 0 } | { stage: "canary"; canaryPercent: number };

const CANARY = /^canary:(0|[1-9][0-9]?|100)$/;

export function newFlowStage(env: Env = process.env): NewFlowStage {
  // The old setting silently created every flow at canary 100%. Refuse it rather than guess, so
  // an operator who relied on it notices and chooses.
  if (env.FLOW_DEFAULT_CANARY_PERCENT !== undefined && env.FLOW_DEFAULT_CANARY_PERCENT !== "") {
    throw new Error("FLOW_DEFAULT_CANARY_PERCENT is no longer read: set FLOW_NEW_STAGE=off (the default) or FLOW_NEW_STAGE=canary:N (N from 0 to 100) instead");
  }
  const raw = env.FLOW_NEW_STAGE;
  if (raw === undefined || raw === "" || raw === "off") return { stage: "off", canaryPercent: 0 };
  const m = CANARY.exec(raw);
  if (!m) throw new Error(`FLOW_NEW_STAGE must be "off" or "canary:N" with N a whole number from 0 to 100, not ${JSON.stringify(raw.slice(0, 40))}`);
  return { stage: "canary", canaryPercent: Number(m[1]) };
}
