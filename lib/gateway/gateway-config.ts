// Gateway settings, read through the one settings schema (lib/config/settings.ts).
import type { Env } from "@/db/config";
import { readSetting } from "@/lib/config/schema";

export interface GatewayConfig {
  /** How long an upstream may stay silent on a forwarded call (not counting a person's answer time). */
  upstreamTimeoutMs: number;
}

export interface PoolConfig {
  /** Upstream sessions kept open for reuse on this instance (0: every call opens its own). */
  maxSessions: number;
  /** An idle pooled session is closed after this long. */
  idleMs: number;
  /** A pooled session older than this is retired (no new calls; closed when its last call ends). */
  maxAgeMs: number;
}

export function gatewayConfig(env: Env = process.env): GatewayConfig {
  const seconds = readSetting(env, "GATEWAY_UPSTREAM_TIMEOUT_SECONDS");
  // Zero would fail every call at once: the schema allows it for other timeouts, this one refuses it.
  if (seconds <= 0) throw new Error("GATEWAY_UPSTREAM_TIMEOUT_SECONDS must be a positive number of seconds");
  return { upstreamTimeoutMs: seconds * 1000 };
}

export function poolConfig(env: Env = process.env): PoolConfig {
  return {
    maxSessions: readSetting(env, "GATEWAY_POOL_MAX_SESSIONS"),
    idleMs: readSetting(env, "GATEWAY_POOL_IDLE_SECONDS") * 1000,
    maxAgeMs: readSetting(env, "GATEWAY_POOL_MAX_AGE_SECONDS") * 1000,
  };
}
