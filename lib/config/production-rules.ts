// The rules that span several settings: what APP_ENV=production requires (every key configured,
// a real identity provider, no test fixtures), and what an external issuer needs. The views apply
// the same rules when they are asked for a value (a missing key stops the caller with its name);
// here they are checked all at once, at start and by `ctl config check`.
import type { Config } from "./schema";

export interface RuleProblem {
  variable: string;
  message: string;
}

const PRODUCTION_KEYS = [
  ["SESSION_SECRET", "encrypts the console's session cookie"],
  ["CONNECT_NONCE_KEY", "derives the URL-mode connect nonce"],
  ["VAULT_KEY", "wraps the vault's data keys"],
  ["MCP_REQUEST_STATE_KEY", "seals the 2026-07-28 requestState"],
] as const;

/** Whether the bundled development identity provider is the issuer under this configuration. */
export function usesDevProvider(config: Pick<Config, "OIDC_ISSUER">): boolean {
  return config.OIDC_ISSUER === undefined;
}

export function productionRules(config: Config): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (config.OIDC_ISSUER !== undefined) {
    for (const name of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const) {
      if (config[name] === undefined)
        problems.push({ variable: name, message: `OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: ${name} is not set` });
    }
  }
  if (config.APP_ENV !== "production") return problems;
  for (const [name, purpose] of PRODUCTION_KEYS) {
    if (config[name] === undefined)
      problems.push({
        variable: name,
        message: `APP_ENV=production needs ${name} (it ${purpose}); generated keys are for development only`,
      });
  }
  if (config.AUDIT_SIGNING_KEY === undefined && config.AUDIT_SIGNING_KEY_FILE === undefined) {
    problems.push({
      variable: "AUDIT_SIGNING_KEY",
      message:
        "APP_ENV=production needs AUDIT_SIGNING_KEY or AUDIT_SIGNING_KEY_FILE (it signs evidence manifests); refusing a development key",
    });
  }
  if (usesDevProvider(config)) {
    if (config.DEV_IDP_ENABLED !== true) {
      problems.push({
        variable: "OIDC_ISSUER",
        message: "APP_ENV=production needs OIDC_ISSUER (or DEV_IDP_ENABLED=true to run the development identity provider)",
      });
    } else {
      for (const name of ["DEV_IDP_CONSOLE_CLIENT_SECRET", "DEMO_DOWNSTREAM_CLIENT_SECRET"] as const) {
        if (config[name] === undefined)
          problems.push({ variable: name, message: `APP_ENV=production with the development identity provider needs ${name}` });
      }
    }
  }
  if (config.MCP_CONFORMANCE_FIXTURES === true) {
    problems.push({
      variable: "MCP_CONFORMANCE_FIXTURES",
      message: "MCP_CONFORMANCE_FIXTURES is refused with APP_ENV=production: the fixture tools are for the conformance suite only",
    });
  }
  return problems;
}
