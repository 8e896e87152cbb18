// Who is authoritative. In production: any OpenID Connect provider the deployment configures
// (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, and the claims that carry roles and tenant).
// Without OIDC_ISSUER, the bundled development provider at APP_URL/oidc is used, and only outside
// production unless DEV_IDP_ENABLED=true says otherwise. The `sub` claim is the identity everywhere.
import { isProduction } from "@/lib/config/app-env";
import { ConfigError } from "@/lib/config/config-error";
import { type Env, readSetting } from "@/lib/config/schema";
import { requiredSecret } from "@/lib/config/secrets";
import { accessTokenTypSetting, claimPathSetting, parseRoleMap, type RoleMap } from "./claims";

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claim name or dotted path (e.g. realm_access.roles) holding role or group names. */
  rolesClaim: string;
  /** Group names mapped to roles (OIDC_ROLE_MAP); empty: role names are read as they are. */
  roleMap: RoleMap;
  tenantClaim: string;
  /** The `typ` access tokens must carry at /api/mcp; undefined: not checked (OIDC_ACCESS_TOKEN_TYP=any). */
  accessTokenTyp: string | undefined;
  /** Scopes the console asks for at sign-in (OIDC_SCOPES). */
  scopes: string;
  /** True when the bundled development identity provider is the issuer. */
  devProvider: boolean;
  appUrl: string;
  /** The MCP endpoint as an OAuth protected resource (RFC 8707 / RFC 9728). */
  mcpResource: string;
  sessionSecret: string;
  sessionMaxAgeSeconds: number;
}

export const DEV_CONSOLE_CLIENT_ID = "console";
/** The bundled provider's public client for `ctl login` (device authorization grant). */
export const DEV_CLI_CLIENT_ID = "ctl";

export function appUrl(env: Env = process.env): string {
  // The one public origin must read the same to every parser (the kind plainOrigin refuses a
  // setting such as "https://connect.example.com\@evil.example", never cutting it to an origin).
  return readSetting(env, "APP_URL") ?? `http://localhost:${readSetting(env, "PORT")}`;
}

export function devIdpEnabled(env: Env = process.env): boolean {
  if (readSetting(env, "OIDC_ISSUER") !== undefined) return false;
  if (isProduction(env) && readSetting(env, "DEV_IDP_ENABLED") !== true) {
    throw new Error("APP_ENV=production needs OIDC_ISSUER (or DEV_IDP_ENABLED=true to run the development identity provider)");
  }
  return true;
}

// Development secrets live in lib/config/secrets.ts; re-exported for the modules that import them from here.
export { devSecret } from "@/lib/config/secrets";

export function oidcConfig(env: Env = process.env): OidcConfig {
  const base = appUrl(env);
  const dev = devIdpEnabled(env);
  const sessionSecret = requiredSecret("session", env);
  const common = {
    appUrl: base,
    mcpResource: readSetting(env, "MCP_RESOURCE") ?? `${base}/api/mcp`,
    rolesClaim: claimPathSetting("OIDC_ROLES_CLAIM", env.OIDC_ROLES_CLAIM, "roles"),
    roleMap: parseRoleMap(env.OIDC_ROLE_MAP),
    tenantClaim: claimPathSetting("OIDC_TENANT_CLAIM", env.OIDC_TENANT_CLAIM, "tenant"),
    accessTokenTyp: accessTokenTypSetting(env.OIDC_ACCESS_TOKEN_TYP),
    scopes: oidcScopes(env.OIDC_SCOPES),
    sessionSecret,
    sessionMaxAgeSeconds: readSetting(env, "SESSION_MAX_AGE_SECONDS"),
  };
  if (dev) {
    return {
      ...common,
      issuer: `${base}/oidc`,
      clientId: DEV_CONSOLE_CLIENT_ID,
      clientSecret: requiredSecret("devConsoleClient", env),
      devProvider: true,
    };
  }
  const clientId = readSetting(env, "OIDC_CLIENT_ID");
  const clientSecret = readSetting(env, "OIDC_CLIENT_SECRET");
  if (!clientId || !clientSecret) throw new ConfigError("OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
  return { ...common, issuer: readSetting(env, "OIDC_ISSUER")!.replace(/\/$/, ""), clientId, clientSecret, devProvider: false };
}

/** OIDC_SCOPES: space-separated scope names; "openid" is always included. */
function oidcScopes(raw: string | undefined): string {
  const scopes = (raw?.trim() || "openid profile roles tenant").split(/\s+/);
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(s)))
    throw new Error("OIDC_SCOPES must be scope names separated by spaces");
  return [...new Set(["openid", ...scopes])].join(" ");
}
