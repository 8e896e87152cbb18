// Abuse-limit settings: defaults, and every bad value refused with an error naming its variable
// (never read as 0 or "unlimited").
import { describe, expect, it } from "vitest";
import { abuseConfig } from "@/lib/abuse/config";

const NUMERIC = [
  "MCP_MAX_SESSIONS_PER_SUBJECT",
  "MCP_SESSION_IDLE_SECONDS",
  "RATE_LIMIT_WINDOW_SECONDS",
  "MCP_RATE_LIMIT_PER_SUBJECT",
  "MCP_RATE_LIMIT_PER_ADDRESS",
  "CONNECT_RATE_LIMIT_PER_SUBJECT",
  "CONNECT_RATE_LIMIT_PER_ADDRESS",
  "AUDIT_COALESCE_WINDOW_SECONDS",
];

describe("abuse settings", () => {
  it("has documented defaults", () => {
    expect(abuseConfig({})).toEqual({
      mcpAllowedOrigins: [],
      maxSessionsPerSubject: 20,
      sessionIdleMs: 1_800_000,
      rateWindowMs: 60_000,
      mcpRatePerSubject: 600,
      mcpRatePerAddress: 6000,
      connectRatePerSubject: 60,
      connectRatePerAddress: 300,
      auditCoalesceWindowMs: 300_000,
      trustProxy: false,
    });
  });

  it("reads valid values", () => {
    expect(
      abuseConfig({
        MCP_MAX_SESSIONS_PER_SUBJECT: " 3 ",
        MCP_SESSION_IDLE_SECONDS: "60",
        TRUST_PROXY: "true",
        MCP_ALLOWED_ORIGINS: "https://a.example.com",
      }),
    ).toMatchObject({ maxSessionsPerSubject: 3, sessionIdleMs: 60_000, trustProxy: true, mcpAllowedOrigins: ["https://a.example.com"] });
  });

  it.each(NUMERIC)("refuses bad values of %s, naming it", (name) => {
    for (const bad of ["0", "-1", "1.5", "1e3", "abc", "Infinity", "99999999999999999999", "0x10"]) {
      expect(() => abuseConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
    }
  });

  it("refuses a TRUST_PROXY that is neither true nor false", () => {
    expect(() => abuseConfig({ TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });
});
