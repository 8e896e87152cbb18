// The one configuration schema: defaults, one line per bad value naming the variable (and never a
// secret's value), the production requirements, and purity (any env map, nothing cached).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig, parseConfig, readSetting } from "@/lib/config/schema";
import { SETTINGS } from "@/lib/config/settings";
import { ConfigError } from "@/lib/config/config-error";
import { newFlowStage } from "@/lib/policy/new-flow-stage";
import { storeConfigFromEnv } from "@/db/config";

const key32 = () => randomBytes(32).toString("base64");
const pem = () => generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const PRODUCTION = {
  APP_ENV: "production",
  APP_URL: "https://gw.example.com",
  OIDC_ISSUER: "https://id.example.com",
  OIDC_CLIENT_ID: "console",
  OIDC_CLIENT_SECRET: "client-secret-value",
  SESSION_SECRET: "s".repeat(40),
  CONNECT_NONCE_KEY: "n".repeat(40),
  VAULT_KEY: key32(),
  MCP_REQUEST_STATE_KEY: key32(),
  AUDIT_SIGNING_KEY: pem(),
};

describe("configuration schema", () => {
  it("reads every default from an empty environment", () => {
    const { config, problems } = parseConfig({});
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      APP_ENV: "development",
      PORT: 3000,
      DATABASE_POOL_MAX: 10,
      FLOW_NEW_STAGE: { stage: "off", canaryPercent: 0 },
      ELICITATION_TIMEOUT_SECONDS: 600,
      MCP_ALLOWED_ORIGINS: [],
      LOG_LEVEL: "info",
      SESSION_SECRET: undefined,
    });
    for (const [name, spec] of Object.entries(SETTINGS)) expect(config![name as keyof typeof SETTINGS], name).toEqual(spec.default);
  });

  it.each([
    ["FLOW_NEW_STAGE", "100%", /^FLOW_NEW_STAGE must be "off" or "canary:N".*\(got "100%"\)$/],
    ["DATABASE_POOL_MAX", "0", /^DATABASE_POOL_MAX must be a whole number of connections from 1 to 1000/],
    ["PORT", "70000", /^PORT must be a whole number from 1 to 65535/],
    ["PORT", "3e3", /^PORT must be a whole number/],
    ["LOG_LEVEL", "loud", /^LOG_LEVEL must be one of fatal, error/],
    ["TRUST_PROXY", "yes", /^TRUST_PROXY must be true or false/],
    ["ELICITATION_TIMEOUT_SECONDS", "-1", /^ELICITATION_TIMEOUT_SECONDS must be a number of seconds/],
    ["CONNECT_TTL_SECONDS", "10m", /^CONNECT_TTL_SECONDS must be a whole number of seconds/],
    ["APP_URL", "https://gw.example.com\\@evil.example", /^APP_URL is not a plain http\(s\) origin/],
    ["MCP_ALLOWED_ORIGINS", "https://*.example.com", /^MCP_ALLOWED_ORIGINS has "https:\/\/\*\.example\.com", which is not an exact origin/],
    ["DATABASE_URL", "mysql://u:p@h/db", /^DATABASE_URL must be a postgres:\/\/ connection string/],
    ["OIDC_ROLES_CLAIM", "my roles", /^OIDC_ROLES_CLAIM must be one claim name/],
  ])("refuses %s=%s in one line naming it", (name, value, line) => {
    const { config, problems } = parseConfig({ [name]: value });
    expect(config).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]!.variable).toBe(name);
    expect(problems[0]!.message).toMatch(line);
    expect(problems[0]!.message).not.toContain("\n");
    // The view that reads it refuses the same value with the same line.
    expect(() => readSetting({ [name]: value }, name as keyof typeof SETTINGS)).toThrow(ConfigError);
  });

  it("never shows a secret's value, and masks a connection string's password", () => {
    const canary = "CANARY-7f3a";
    const { problems } = parseConfig({
      SESSION_SECRET: canary,
      VAULT_KEY: canary,
      MCP_REQUEST_STATE_KEY: canary,
      AUDIT_SIGNING_KEY: canary,
      METRICS_TOKEN: canary,
      DATABASE_URL: `mysql://u:${canary}@h/db`,
    });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      "AUDIT_SIGNING_KEY",
      "DATABASE_URL",
      "MCP_REQUEST_STATE_KEY",
      "METRICS_TOKEN",
      "SESSION_SECRET",
      "VAULT_KEY",
    ]);
    for (const p of problems) expect(p.message).not.toContain(canary);
    expect(() => loadConfig({ SESSION_SECRET: canary })).toThrow(/^SESSION_SECRET is too short/);
    try {
      loadConfig({ SESSION_SECRET: canary });
    } catch (err) {
      expect((err as Error).message).not.toContain(canary);
    }
  });

  it("stops with one line naming the first problem and counting the rest", () => {
    expect(() => loadConfig({ FLOW_NEW_STAGE: "100%", PORT: "x" })).toThrow(
      /^PORT must be .* \(and 1 more problem\(s\): run ctl config check\)$/,
    );
  });

  it("requires every key and a real issuer in production, and accepts a complete production configuration", () => {
    const { problems } = parseConfig({ APP_ENV: "production" });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      "AUDIT_SIGNING_KEY",
      "CONNECT_NONCE_KEY",
      "MCP_REQUEST_STATE_KEY",
      "OIDC_ISSUER",
      "SESSION_SECRET",
      "VAULT_KEY",
    ]);
    expect(problems.find((p) => p.variable === "OIDC_ISSUER")!.message).toMatch(/APP_ENV=production needs OIDC_ISSUER/);
    const ok = parseConfig(PRODUCTION);
    expect(ok.problems).toEqual([]);
    expect(ok.config).toMatchObject({ APP_ENV: "production", APP_URL: "https://gw.example.com", OIDC_ISSUER: "https://id.example.com" });
    // A key file instead of the key itself also satisfies the signing-key requirement.
    const { AUDIT_SIGNING_KEY: _k, ...withoutKey } = PRODUCTION;
    expect(parseConfig({ ...withoutKey, AUDIT_SIGNING_KEY_FILE: "/run/secrets/audit.pem" }).problems).toEqual([]);
  });

  it("lists a production requirement and a bad value in the same run", () => {
    const { problems } = parseConfig({ ...PRODUCTION, SESSION_SECRET: "short", VAULT_KEY: "", FLOW_NEW_STAGE: "100%" });
    expect(problems.map((p) => p.variable).sort()).toEqual(["FLOW_NEW_STAGE", "SESSION_SECRET", "VAULT_KEY"]);
    expect(problems.find((p) => p.variable === "SESSION_SECRET")!.message).toMatch(/too short/);
  });

  it("refuses the test fixtures and a development provider without its secrets in production", () => {
    expect(parseConfig({ ...PRODUCTION, MCP_CONFORMANCE_FIXTURES: "true" }).problems.map((p) => p.variable)).toEqual([
      "MCP_CONFORMANCE_FIXTURES",
    ]);
    const { OIDC_ISSUER: _i, OIDC_CLIENT_ID: _c, OIDC_CLIENT_SECRET: _s, ...dev } = PRODUCTION;
    expect(
      parseConfig({ ...dev, DEV_IDP_ENABLED: "true" })
        .problems.map((p) => p.variable)
        .sort(),
    ).toEqual(["DEMO_DOWNSTREAM_CLIENT_SECRET", "DEV_IDP_CONSOLE_CLIENT_SECRET"]);
  });

  it("needs the client of an external issuer in any environment", () => {
    expect(
      parseConfig({ OIDC_ISSUER: "https://id.example.com" })
        .problems.map((p) => p.variable)
        .sort(),
    ).toEqual(["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]);
  });

  it("refuses a retired setting instead of ignoring it", () => {
    const { problems } = parseConfig({ FLOW_DEFAULT_CANARY_PERCENT: "100%" });
    expect(problems).toEqual([
      {
        variable: "FLOW_DEFAULT_CANARY_PERCENT",
        message: expect.stringMatching(/^FLOW_DEFAULT_CANARY_PERCENT is no longer read: set FLOW_NEW_STAGE/),
      },
    ]);
  });

  it("reads only the map's own keys: an inherited or prototype key is not a setting", () => {
    const inherited = Object.create({ FLOW_NEW_STAGE: "100%", PORT: "x" }) as Record<string, string>;
    expect(parseConfig(inherited).problems).toEqual([]);
    const polluted = JSON.parse('{"__proto__": {"PORT": "x"}, "constructor": "y"}') as Record<string, string>;
    expect(parseConfig(polluted).problems).toEqual([]);
    expect(readSetting(polluted, "PORT")).toBe(3000);
  });

  it("treats blank as unset and trims padding, except where whitespace means a mistake", () => {
    expect(readSetting({ PORT: "   " }, "PORT")).toBe(3000);
    expect(readSetting({ SESSION_SECRET: `${"k".repeat(40)}\n` }, "SESSION_SECRET")).toBe("k".repeat(40));
    expect(() => readSetting({ FLOW_NEW_STAGE: "canary:5\n" }, "FLOW_NEW_STAGE")).toThrow(/FLOW_NEW_STAGE must be/);
  });

  it("is pure: each call reads the map it is given (tests set variables per test)", () => {
    const env: Record<string, string> = { FLOW_NEW_STAGE: "canary:5" };
    expect(newFlowStage(env)).toEqual({ stage: "canary", canaryPercent: 5 });
    env.FLOW_NEW_STAGE = "off";
    expect(newFlowStage(env)).toEqual({ stage: "off", canaryPercent: 0 });
    expect(storeConfigFromEnv({ DATABASE_URL: "postgres://a/b", DATABASE_POOL_MAX: "3" })).toEqual({
      kind: "postgres",
      url: "postgres://a/b",
      poolMax: 3,
    });
    expect(() => storeConfigFromEnv({ DATABASE_URL: "postgres://a/b", DATABASE_POOL_MAX: "1.5" })).toThrow(
      /^DATABASE_POOL_MAX must be a whole number/,
    );
  });
});
