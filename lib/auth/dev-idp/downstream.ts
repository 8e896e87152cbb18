// The demo downstream provider: a second development oidc-provider instance at APP_URL/dev/downstream
// ("Demo Git"), with one confidential client (this app, redirecting to /connect/callback) and a
// tiny protected API listing repositories. It stands in for GitHub, Google and the like: URL mode
// obtains a grant from it, the vault keeps the token, list_repositories calls the API server-side.
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import type Provider from "oidc-provider";
import type { Env } from "@/db/config";
import { appUrl } from "@/lib/auth/oidc-config";
import { requiredSecret } from "@/lib/config/secrets";
import { devJwks } from "./keys";
import { createProviderFor } from "./provider";
import type { IdpRecordStore } from "./state-adapter";

export const DOWNSTREAM_PREFIX = "/dev/downstream";
export const DOWNSTREAM_CLIENT_ID = "elicitation-gateway";
export const DOWNSTREAM_SCOPE = "repo:read";

export function downstreamUrls(env: Env = process.env) {
  const base = appUrl(env);
  return {
    issuer: `${base}${DOWNSTREAM_PREFIX}`,
    api: `${base}${DOWNSTREAM_PREFIX}/api`,
    redirectUri: `${base}/connect/callback`,
    clientSecret: requiredSecret("demoDownstreamClient", env),
  };
}

export function createDownstreamProvider(env: Env = process.env, records?: IdpRecordStore): Provider {
  const u = downstreamUrls(env);
  return createProviderFor({
    records,
    issuer: u.issuer,
    prefix: DOWNSTREAM_PREFIX,
    keyName: "dev-downstream",
    env,
    resource: u.api,
    scope: DOWNSTREAM_SCOPE,
    clients: [
      {
        client_id: DOWNSTREAM_CLIENT_ID,
        client_secret: u.clientSecret,
        client_name: "Elicitation gateway",
        redirect_uris: [u.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
  });
}

const REPOS: Record<string, string[]> = {
  "user-alice-1001": ["acme/reports", "acme/infrastructure", "acme/website"],
  "user-bob-1002": ["acme/website"],
  "user-mallory-2001": ["globex/pricing"],
};

/** GET /dev/downstream/api/repos with the provider's own access token. */
export function createDownstreamApi(env: Env = process.env) {
  const u = downstreamUrls(env);
  const keys = devJwks(env, "dev-downstream").keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub);
  const jwks = createLocalJWKSet({ keys } as JSONWebKeySet);
  return async (authorization: string | undefined): Promise<{ status: number; body: unknown }> => {
    const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
    if (!token) return { status: 401, body: { error: "missing token" } };
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: u.issuer, audience: u.api, typ: "at+jwt" });
      if (
        !String(payload.scope ?? "")
          .split(" ")
          .includes(DOWNSTREAM_SCOPE)
      )
        return { status: 403, body: { error: "insufficient scope" } };
      return { status: 200, body: { owner: payload.sub, repositories: REPOS[String(payload.sub)] ?? [] } };
    } catch {
      return { status: 401, body: { error: "invalid token" } };
    }
  };
}
