// Who is authoritative. In production: any OpenID Connect provider the deployment configures
// (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, and the claims that carry roles and tenant).
// Without OIDC_ISSUER, the bundled development provider at APP_URL/oidc is used, and only outside
// production unless DEV_IDP_ENABLED=true says otherwise. The `sub` claim is the identity everywhere.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDirFromEnv, type Env } from "@/db/config";
import { isProduction } from "@/lib/config/app-env";

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  rolesClaim: string;
  tenantClaim: string;
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
  const raw = env.APP_URL?.trim() || `http://localhost:${env.PORT?.trim() || "3000"}`;
  const u = new URL(raw);
  return u.origin;
}

export function devIdpEnabled(env: Env = process.env): boolean {
  if (env.OIDC_ISSUER?.trim()) return false;
  if (isProduction(env) && env.DEV_IDP_ENABLED !== "true") {
    throw new Error("APP_ENV=production needs OIDC_ISSUER (or DEV_IDP_ENABLED=true to run the development identity provider)");
  }
  return true;
}

/** A random secret generated once into DATA_DIR/keys, for development only. */
export function devSecret(name: string, env: Env = process.env): string {
  const file = path.join(dataDirFromEnv(env), "keys", `${name}.secret`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}

export function oidcConfig(env: Env = process.env): OidcConfig {
  const base = appUrl(env);
  const dev = devIdpEnabled(env);
  const sessionSecret = env.SESSION_SECRET?.trim() || (isProduction(env) ? "" : devSecret("session", env));
  if (!sessionSecret) throw new Error("APP_ENV=production needs SESSION_SECRET");
  const common = {
    appUrl: base,
    mcpResource: env.MCP_RESOURCE?.trim() || `${base}/api/mcp`,
    rolesClaim: env.OIDC_ROLES_CLAIM?.trim() || "roles",
    tenantClaim: env.OIDC_TENANT_CLAIM?.trim() || "tenant",
    sessionSecret,
    sessionMaxAgeSeconds: Number(env.SESSION_MAX_AGE_SECONDS ?? 8 * 3600),
  };
  if (dev) {
    return { ...common, issuer: `${base}/oidc`, clientId: DEV_CONSOLE_CLIENT_ID, clientSecret: devSecret("dev-console-client", env), devProvider: true };
  }
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) throw new Error("OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
  return { ...common, issuer: env.OIDC_ISSUER!.trim().replace(/\/$/, ""), clientId, clientSecret, devProvider: false };
}
