// Gateway settings from the environment, validated when read.
import type { Env } from "@/db/config";

export interface GatewayConfig {
  /** How long an upstream may stay silent on a forwarded call (not counting a person's answer time). */
  upstreamTimeoutMs: number;
}

export function gatewayConfig(env: Env = process.env): GatewayConfig {
  const raw = env.GATEWAY_UPSTREAM_TIMEOUT_SECONDS;
  const n = raw === undefined || raw === "" ? 120 : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error("GATEWAY_UPSTREAM_TIMEOUT_SECONDS must be a positive number of seconds");
  return { upstreamTimeoutMs: n * 1000 };
}
