// Engine settings: a view on the configuration table (lib/config/settings.ts).
import { type Env, readSetting } from "@/lib/config/schema";

export interface EngineConfig {
  /** How long a person has to answer a form, in ms. The client's own tools/call timeout must be longer. */
  formTimeoutMs: number;
  /** After a decline or cancel, the same workflow is not prompted again for this long. */
  cooldownMs: number;
}

export function engineConfig(env: Env = process.env): EngineConfig {
  return {
    formTimeoutMs: readSetting(env, "ELICITATION_TIMEOUT_SECONDS") * 1000,
    cooldownMs: readSetting(env, "ELICITATION_COOLDOWN_SECONDS") * 1000,
  };
}
