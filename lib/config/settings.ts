// Every environment variable the app reads, in one table: its kind (a zod schema over the text),
// its default, and whether it is a secret. lib/config/schema.ts builds the one validating schema
// from it; the modules that used to read the environment themselves are views on it. The README's
// configuration table lists exactly these names with these defaults (tests/unit/config-readme.test.ts).
// To add a setting: add an entry here (kind, default, secret), a row to the README table, and read
// it with readSetting(env, <its name>) where it is used; production requirements go in production-rules.ts.
import { z } from "zod";
import { SECRETS } from "./secret-specs";
import { DB_SETTINGS, optionalSetting, setting } from "@/db/config-settings";
import {
  base64Key32,
  flag,
  fractionalSeconds,
  httpUrl,
  type Kind,
  oneOf,
  originList,
  plainOrigin,
  privateKeyPem,
  secretText,
  text,
  wholeNumber,
} from "./kinds";

export type { SettingSpec } from "@/db/config-settings";

const DAY = 86_400;
const CLAIM = { max: 200, pattern: /^[\x21-\x7e]+$/, describe: "must be one claim name (printable ASCII, no spaces)" };

export type NewFlowStage = { stage: "off"; canaryPercent: 0 } | { stage: "canary"; canaryPercent: number };
const CANARY = /^canary:(0|[1-9][0-9]?|100)$/;
const flowStage: Kind<NewFlowStage> = z.string().transform((raw, ctx): NewFlowStage => {
  if (raw === "off") return { stage: "off", canaryPercent: 0 };
  const m = CANARY.exec(raw);
  if (m) return { stage: "canary", canaryPercent: Number(m[1]) };
  ctx.addIssue({ code: "custom", message: 'must be "off" or "canary:N" with N a whole number from 0 to 100' });
  return z.NEVER;
});

const generated = "generated in development";

export const SETTINGS = {
  // Store and process.
  ...DB_SETTINGS,
  PORT: setting({ kind: wholeNumber(1, 65_535), default: 3000 }),
  HOSTNAME_BIND: setting({
    kind: text({ max: 255, pattern: /^[A-Za-z0-9.:_-]+$/, describe: "must be a host name or IP address" }),
    default: "127.0.0.1",
  }),
  APP_URL: optionalSetting({ kind: plainOrigin(), defaultText: "http://localhost:$PORT" }),
  APP_ENV: setting({ kind: oneOf(["development", "production"] as const), default: "development" }),
  // Identity.
  OIDC_ISSUER: optionalSetting({ kind: httpUrl(), defaultText: "unset" }),
  OIDC_CLIENT_ID: optionalSetting({ kind: text({ max: 500 }), defaultText: "unset" }),
  OIDC_CLIENT_SECRET: optionalSetting({ kind: text({ max: 2000 }), defaultText: "unset", secret: true }),
  OIDC_ROLES_CLAIM: setting({ kind: text(CLAIM), default: "roles" }),
  OIDC_TENANT_CLAIM: setting({ kind: text(CLAIM), default: "tenant" }),
  OIDC_ROLE_MAP: optionalSetting({ kind: text({ max: 4000 }), defaultText: "unset" }),
  OIDC_ACCESS_TOKEN_TYP: setting({
    kind: text({ max: 40, pattern: /^[A-Za-z0-9.+/-]{1,40}$/, describe: 'must be a media type such as "at+jwt" or "JWT", or "any"' }),
    default: "at+jwt",
  }),
  OIDC_SCOPES: setting({ kind: text({ max: 2000 }), default: "openid profile roles tenant" }),
  DEV_IDP_PROFILE: setting({ kind: oneOf(["standard", "groups", "nested"] as const), default: "standard" }),
  MCP_RESOURCE: optionalSetting({ kind: httpUrl(), defaultText: "APP_URL/api/mcp" }),
  SESSION_SECRET: optionalSetting({ kind: secretText(SECRETS.session.minLength), defaultText: generated, secret: true }),
  CONNECT_NONCE_KEY: optionalSetting({ kind: secretText(SECRETS.connectNonce.minLength), defaultText: generated, secret: true }),
  DEV_IDP_CONSOLE_CLIENT_SECRET: optionalSetting({
    kind: secretText(SECRETS.devConsoleClient.minLength),
    defaultText: generated,
    secret: true,
  }),
  DEMO_DOWNSTREAM_CLIENT_SECRET: optionalSetting({
    kind: secretText(SECRETS.demoDownstreamClient.minLength),
    defaultText: generated,
    secret: true,
  }),
  SESSION_MAX_AGE_SECONDS: setting({ kind: wholeNumber(60, 30 * DAY, "seconds"), default: 28_800 }),
  DEV_IDP_ENABLED: optionalSetting({ kind: flag(), defaultText: "unset" }),
  TRUST_PROXY: optionalSetting({ kind: flag(), defaultText: "unset" }),
  // Audit.
  AUDIT_SIGNING_KEY: optionalSetting({ kind: privateKeyPem(), defaultText: "unset", secret: true }),
  AUDIT_SIGNING_KEY_FILE: optionalSetting({ kind: text(), defaultText: "unset" }),
  // Engine and policy.
  ELICITATION_TIMEOUT_SECONDS: setting({ kind: fractionalSeconds(DAY), default: 600 }),
  ELICITATION_COOLDOWN_SECONDS: setting({ kind: fractionalSeconds(7 * DAY), default: 300 }),
  FLOW_NEW_STAGE: setting({ kind: flowStage, default: { stage: "off", canaryPercent: 0 }, defaultText: "off", exact: true }),
  MCP_CLIENT_ID_CLAIM: optionalSetting({
    kind: text({ max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.:-]*$/, describe: "must be one JWT claim name (letters, digits, _ . : -)" }),
    defaultText: "unset (`client_id`, then `azp`)",
    exact: true,
  }),
  CONNECT_TTL_SECONDS: setting({ kind: wholeNumber(1, DAY, "seconds"), default: 600 }),
  VAULT_KEY: optionalSetting({ kind: base64Key32(), defaultText: generated, secret: true }),
  VAULT_KEY_ID: optionalSetting({
    kind: text({ max: 64, pattern: /^[A-Za-z0-9._:-]+$/, describe: "must be a key name (letters, digits, . _ : -)" }),
    defaultText: generated,
  }),
  METRICS_TOKEN: optionalSetting({ kind: secretText(SECRETS.metricsToken.minLength), defaultText: generated, secret: true }),
  LOG_LEVEL: setting({ kind: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const), default: "info" }),
  DRAIN_GRACE_SECONDS: setting({ kind: wholeNumber(0, 99_999, "seconds"), default: 60 }),
  // Abuse limits.
  MCP_ALLOWED_ORIGINS: setting({ kind: originList(), default: [], defaultText: "empty" }),
  MCP_MAX_SESSIONS_PER_SUBJECT: setting({ kind: wholeNumber(1, 100_000), default: 20 }),
  MCP_SESSION_IDLE_SECONDS: setting({ kind: wholeNumber(1, 30 * DAY, "seconds"), default: 1800 }),
  RATE_LIMIT_WINDOW_SECONDS: setting({ kind: wholeNumber(1, DAY, "seconds"), default: 60 }),
  MCP_RATE_LIMIT_PER_SUBJECT: setting({ kind: wholeNumber(1, 1_000_000_000), default: 600 }),
  MCP_RATE_LIMIT_PER_ADDRESS: setting({ kind: wholeNumber(1, 1_000_000_000), default: 6000 }),
  CONNECT_RATE_LIMIT_PER_SUBJECT: setting({ kind: wholeNumber(1, 1_000_000_000), default: 60 }),
  CONNECT_RATE_LIMIT_PER_ADDRESS: setting({ kind: wholeNumber(1, 1_000_000_000), default: 300 }),
  AUDIT_COALESCE_WINDOW_SECONDS: setting({ kind: wholeNumber(1, 30 * DAY, "seconds"), default: 300 }),
  MCP_REQUEST_STATE_KEY: optionalSetting({ kind: base64Key32(), defaultText: generated, secret: true }),
  MCP_CONFORMANCE_FIXTURES: optionalSetting({ kind: flag(), defaultText: "unset" }),
  // The bundled development identity provider's sign-in throttle.
  DEV_IDP_SIGNIN_MAX_FAILURES: setting({ kind: wholeNumber(1, 10_000), default: 5 }),
  DEV_IDP_SIGNIN_MAX_FAILURES_PER_ADDRESS: setting({ kind: wholeNumber(1, 100_000), default: 20 }),
  DEV_IDP_SIGNIN_WINDOW_SECONDS: setting({ kind: wholeNumber(1, DAY, "seconds"), default: 900 }),
  DEV_IDP_SIGNIN_BLOCK_SECONDS: setting({ kind: wholeNumber(1, DAY, "seconds"), default: 900 }),
  DEV_IDP_SIGNIN_DELAY_STEP_MS: setting({ kind: wholeNumber(0, 2000, "milliseconds"), default: 250 }),
  // The command line.
  CTL_FRESH_LOGIN_SECONDS: setting({ kind: wholeNumber(1, DAY, "seconds"), default: 900 }),
  CTL_SESSION_FILE: optionalSetting({ kind: text(), defaultText: "~/.config/elicitation-gateway/session.json" }),
  OIDC_CLI_CLIENT_ID: optionalSetting({ kind: text({ max: 500 }), defaultText: "unset" }),
  // Tracing (the exporter also reads the OpenTelemetry SDK's other standard OTEL_* variables itself).
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalSetting({ kind: httpUrl(), defaultText: "unset" }),
  OTEL_SERVICE_NAME: setting({ kind: text({ max: 200 }), default: "elicitation-gateway" }),
  OTEL_SDK_DISABLED: optionalSetting({ kind: flag(), defaultText: "unset" }),
  // Gateway mode.
  GATEWAY_SIGNING_KEY: optionalSetting({ kind: privateKeyPem(), defaultText: generated, secret: true }),
  GATEWAY_UPSTREAM_TIMEOUT_SECONDS: setting({ kind: fractionalSeconds(DAY), default: 120 }),
  GATEWAY_POOL_MAX_SESSIONS: setting({ kind: wholeNumber(0, 100_000, "sessions"), default: 256 }),
  GATEWAY_POOL_IDLE_SECONDS: setting({ kind: fractionalSeconds(DAY), default: 60 }),
  GATEWAY_POOL_MAX_AGE_SECONDS: setting({ kind: fractionalSeconds(DAY), default: 600 }),
  DEMO_UPSTREAM_PORT: optionalSetting({ kind: wholeNumber(1, 65_535), defaultText: "PORT + 1" }),
  // Release gates.
  CHROMIUM_PATH: setting({ kind: text(), default: "/usr/bin/chromium" }),
  GATES_ACCESS_TOKEN: optionalSetting({ kind: text({ max: 16_384 }), defaultText: "unset", secret: true }),
  GATES_LOG_FILE: optionalSetting({ kind: text(), defaultText: "unset" }),
  GATES_ACCEPTED_TARGETS: setting({ kind: originList(), default: [], defaultText: "empty" }),
  GATES_TIMEOUT_BUDGET_SECONDS: setting({ kind: fractionalSeconds(DAY), default: 60 }),
  GATE_TEST_FAULTS: optionalSetting({ kind: text({ max: 200 }), defaultText: "unset" }),
  AUDIT_VERIFY_MAX_BYTES: setting({ kind: wholeNumber(1, Number.MAX_SAFE_INTEGER, "bytes"), default: 536_870_912 }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends { kind: Kind<infer T>; default: infer D }
  ? T | (undefined extends D ? undefined : never)
  : never;

/** Settings that are no longer read; setting one is an error, so an operator who relied on it notices. */
export const RETIRED: Record<string, string> = {
  FLOW_DEFAULT_CANARY_PERCENT:
    "is no longer read: set FLOW_NEW_STAGE=off (the default) or FLOW_NEW_STAGE=canary:N (N from 0 to 100) instead",
};

/**
 * Variables the app reads that belong to its platform, not to this configuration: Next.js sets
 * NODE_ENV and NEXT_RUNTIME, the server sets NEXTAUTH_URL from APP_URL, XDG_CONFIG_HOME is the
 * desktop standard, PATH is handed to the demo's upstream process, and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * is one of the OpenTelemetry SDK's own standard variables. UPSTREAM_SECRET_<NAME> variables are
 * read by name from the upstream registry (lib/gateway), not listed here.
 */
export const PLATFORM_VARIABLES = [
  "NODE_ENV",
  "NEXTAUTH_URL",
  "XDG_CONFIG_HOME",
  "PATH",
  "NEXT_RUNTIME",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
] as const;
