// The gateway's own credential for an upstream (never the client's token): nothing, a header whose
// value is a named configuration variable (UPSTREAM_SECRET_*), or an OAuth access token obtained with
// the client credentials grant at the upstream's issuer (openid-client: discovery, then the token
// endpoint), cached until shortly before it expires.
import * as oidc from "openid-client";
import type { Env } from "@/db/config";
import { isProduction } from "@/lib/config/app-env";
import { isLoopbackHost } from "@/lib/policy/url-check";
import type { UpstreamAuth } from "./upstream-input";

export class UpstreamAuthError extends Error {
  override name = "UpstreamAuthError";
}

function secretValue(name: string, env: Env): string {
  const value = env[name]?.trim();
  // The message names the variable, never a value.
  if (!value) throw new UpstreamAuthError(`configuration variable ${name} is not set`);
  return value;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

const cacheKeyOf = (upstreamId: string, auth: Extract<UpstreamAuth, { kind: "oauth_client_credentials" }>) =>
  JSON.stringify([upstreamId, auth.issuer, auth.clientId, auth.scope ?? ""]);

async function clientCredentialsToken(
  upstreamId: string,
  auth: Extract<UpstreamAuth, { kind: "oauth_client_credentials" }>,
  env: Env,
): Promise<string> {
  const cacheKey = cacheKeyOf(upstreamId, auth);
  const hit = tokens.get(cacheKey);
  if (hit && hit.expiresAt > Date.now()) return hit.token;
  const issuer = new URL(auth.issuer);
  // Loopback HTTP only in development, as for every other URL.
  const insecure = issuer.protocol === "http:" && !isProduction(env) && isLoopbackHost(issuer.hostname);
  try {
    const config = await oidc.discovery(
      issuer,
      auth.clientId,
      secretValue(auth.clientSecretEnv, env),
      undefined,
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    const grant = await oidc.clientCredentialsGrant(config, auth.scope ? { scope: auth.scope } : {});
    const lifetime = Math.max(0, (grant.expires_in ?? 60) - 30) * 1000;
    tokens.set(cacheKey, { token: grant.access_token, expiresAt: Date.now() + lifetime });
    return grant.access_token;
  } catch (err) {
    if (err instanceof UpstreamAuthError) throw err;
    throw new UpstreamAuthError(`the client credentials grant at ${issuer.origin} failed (${err instanceof Error ? err.name : "error"})`);
  }
}

/** The headers that authenticate the gateway itself to an upstream. */
export async function upstreamAuthHeaders(upstreamId: string, auth: UpstreamAuth, env: Env = process.env): Promise<Record<string, string>> {
  if (auth.kind === "none") return {};
  if (auth.kind === "header") return { [auth.header]: `${auth.prefix ?? ""}${secretValue(auth.secretEnv, env)}` };
  return { authorization: `Bearer ${await clientCredentialsToken(upstreamId, auth, env)}` };
}

/**
 * The upstream refused the gateway's credential (401). A client-credentials token may have been
 * revoked or its keys rotated before it expired: forget it so the next request gets a fresh one.
 * Returns whether there was anything to renew (a static header cannot be renewed).
 */
export function renewableAfterRefusal(upstreamId: string, auth: UpstreamAuth): boolean {
  if (auth.kind !== "oauth_client_credentials") return false;
  tokens.delete(cacheKeyOf(upstreamId, auth));
  return true;
}
