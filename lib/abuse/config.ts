// Abuse limits and the MCP endpoint's origin allowlist: a view on the configuration table
// (lib/config/settings.ts), where each is validated; a bad value is an error naming the variable,
// never a silent 0 or "unlimited".
import { type Env, readSetting } from "@/lib/config/schema";

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

/** Exact origins only: scheme, host and port, no path, no wildcard, no trailing slash (the kind is originList). */
export function parseOriginList(name: "MCP_ALLOWED_ORIGINS", raw: string | undefined): string[] {
  return readSetting({ [name]: raw }, name);
}

export function abuseConfig(env: Env = process.env): AbuseConfig {
  return {
    mcpAllowedOrigins: readSetting(env, "MCP_ALLOWED_ORIGINS"),
    maxSessionsPerSubject: readSetting(env, "MCP_MAX_SESSIONS_PER_SUBJECT"),
    sessionIdleMs: readSetting(env, "MCP_SESSION_IDLE_SECONDS") * 1000,
    rateWindowMs: readSetting(env, "RATE_LIMIT_WINDOW_SECONDS") * 1000,
    mcpRatePerSubject: readSetting(env, "MCP_RATE_LIMIT_PER_SUBJECT"),
    // Per address is generous: many people behind one NAT share an address.
    mcpRatePerAddress: readSetting(env, "MCP_RATE_LIMIT_PER_ADDRESS"),
    connectRatePerSubject: readSetting(env, "CONNECT_RATE_LIMIT_PER_SUBJECT"),
    connectRatePerAddress: readSetting(env, "CONNECT_RATE_LIMIT_PER_ADDRESS"),
    auditCoalesceWindowMs: readSetting(env, "AUDIT_COALESCE_WINDOW_SECONDS") * 1000,
    trustProxy: readSetting(env, "TRUST_PROXY") === true,
  };
}
