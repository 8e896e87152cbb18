// Abuse limits and the MCP endpoint's origin allowlist, read from the environment once and
// validated: a bad value is an error naming the variable, never a silent 0 or "unlimited".
import type { Env } from "@/db/config";

export interface AbuseConfig {
  /** Exact origins (besides APP_URL's) whose browser pages may call /api/mcp. */
  mcpAllowedOrigins: string[];
  /** Live MCP sessions one subject (per tenant) may hold across all instances. */
  maxSessionsPerSubject: number;
  /** A session with no request for this long is closed and its memory released. */
  sessionIdleMs: number;
  /** Length of one rate-limit window. */
  rateWindowMs: number;
  mcpRatePerSubject: number;
  mcpRatePerAddress: number;
  connectRatePerSubject: number;
  connectRatePerAddress: number;
  /** Repeated denied page views inside this window are counted, not written one by one. */
  auditCoalesceWindowMs: number;
  /** Honour the last X-Forwarded-For hop as the client address (a trusted proxy sets it). */
  trustProxy: boolean;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${name} must be a whole number of at least 1 (got "${raw.slice(0, 40)}")`);
  }
  return Number(raw);
}

/** Exact origins only: scheme, host and port, no path, no wildcard, no trailing slash. */
export function parseOriginList(name: string, raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  return raw.split(",").map((entry) => {
    const value = entry.trim();
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value || value.includes("*")) {
      throw new Error(`${name}: "${value.slice(0, 80)}" is not an exact origin such as https://app.example.com (scheme, host, optional port; nothing else)`);
    }
    return value;
  });
}

export function abuseConfig(env: Env = process.env): AbuseConfig {
  const trust = env.TRUST_PROXY?.trim();
  if (trust && trust !== "true" && trust !== "false") throw new Error(`TRUST_PROXY must be "true" or "false"`);
  return {
    mcpAllowedOrigins: parseOriginList("MCP_ALLOWED_ORIGINS", env.MCP_ALLOWED_ORIGINS),
    maxSessionsPerSubject: positiveInt(env, "MCP_MAX_SESSIONS_PER_SUBJECT", 20),
    sessionIdleMs: positiveInt(env, "MCP_SESSION_IDLE_SECONDS", 1800) * 1000,
    rateWindowMs: positiveInt(env, "RATE_LIMIT_WINDOW_SECONDS", 60) * 1000,
    mcpRatePerSubject: positiveInt(env, "MCP_RATE_LIMIT_PER_SUBJECT", 600),
    // Per address is generous: many people behind one NAT share an address.
    mcpRatePerAddress: positiveInt(env, "MCP_RATE_LIMIT_PER_ADDRESS", 6000),
    connectRatePerSubject: positiveInt(env, "CONNECT_RATE_LIMIT_PER_SUBJECT", 60),
    connectRatePerAddress: positiveInt(env, "CONNECT_RATE_LIMIT_PER_ADDRESS", 300),
    auditCoalesceWindowMs: positiveInt(env, "AUDIT_COALESCE_WINDOW_SECONDS", 300) * 1000,
    trustProxy: trust === "true",
  };
}
