// How a flow seen for the first time enters: FLOW_NEW_STAGE. `off` (the default) admits nobody
// until an operator sets a canary or promotes it; `canary:N` admits N% of subjects (0..100). A flow
// is only ever created for a verified client profile, so this is the one place a new client's
// first call is decided. A bad value is an error naming the variable, never a silent 0 (the
// setting's kind is in lib/config/settings.ts).
import { type Env, readSetting, refuseRetired } from "@/lib/config/schema";
import type { NewFlowStage } from "@/lib/config/settings";

export type { NewFlowStage };

export function newFlowStage(env: Env = process.env): NewFlowStage {
  // The old setting silently created every flow at canary 100%. Refuse it rather than guess, so
  // an operator who relied on it notices and chooses.
  refuseRetired(env, "FLOW_DEFAULT_CANARY_PERCENT");
  return readSetting(env, "FLOW_NEW_STAGE");
}
