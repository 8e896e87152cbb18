// Engine settings from the environment, validated once.
import type { Env } from "@/db/config";

export interface EngineConfig {
  /** How long a person has to answer a form, in ms. The client's own tools/call timeout must be longer. */
  formTimeoutMs: number;
  /** After a decline or cancel, the same workflow is not prompted again for this long. */
  cooldownMs: number;
}

function seconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback * 1000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of seconds`);
  return n * 1000;
}

export function engineConfig(env: Env = process.env): EngineConfig {
  return {
    formTimeoutMs: seconds(env, "ELICITATION_TIMEOUT_SECONDS", 600),
    cooldownMs: seconds(env, "ELICITATION_COOLDOWN_SECONDS", 300),
  };
}
