// The downstream OAuth client (openid-client): discovery with the issuer pinned, authorization
// code with PKCE, state and nonce, and the exact registered redirect URI.
import * as oidc from "openid-client";
import { tracedFetch } from "@/lib/telemetry/traced-fetch";
import type { ProviderInfo } from "./registry";

const cache = new Map<string, Promise<oidc.Configuration>>();

export function providerConfiguration(p: ProviderInfo, dev: boolean): Promise<oidc.Configuration> {
  const key = `${p.issuer}|${p.clientId}`;
  let config = cache.get(key);
  if (!config) {
    const insecure = dev && p.issuer.startsWith("http://");
    // discovery() refuses a document whose issuer differs from the one asked for (pinned issuer).
    // (The cast: openid-client hands fetch a Uint8Array body, which fetch accepts at run time.)
    config = oidc.discovery(new URL(p.issuer), p.clientId, undefined, oidc.ClientSecretBasic(p.clientSecret), {
      [oidc.customFetch]: tracedFetch as oidc.CustomFetch,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    config.catch(() => cache.delete(key));
    cache.set(key, config);
  }
  return config;
}

export async function authorizationUrl(
  p: ProviderInfo,
  dev: boolean,
  q: { redirectUri: string; state: string; nonce: string; verifier: string },
): Promise<URL> {
  const config = await providerConfiguration(p, dev);
  const params: Record<string, string> = {
    redirect_uri: q.redirectUri,
    scope: p.scopes.join(" "),
    code_challenge: await oidc.calculatePKCECodeChallenge(q.verifier),
    code_challenge_method: "S256",
    state: q.state,
    nonce: q.nonce,
  };
  if (p.resource) params.resource = p.resource;
  return oidc.buildAuthorizationUrl(config, params);
}

export async function exchangeCode(
  p: ProviderInfo,
  dev: boolean,
  q: { callbackUrl: URL; redirectUri: string; state: string; nonce: string; verifier: string },
) {
  const config = await providerConfiguration(p, dev);
  // Checks issuer (iss parameter and ID token), audience, state, nonce and PKCE; the token request
  // names the exact registered redirect URI.
  return oidc.authorizationCodeGrant(
    config,
    q.callbackUrl,
    { pkceCodeVerifier: q.verifier, expectedState: q.state, expectedNonce: q.nonce, idTokenExpected: true },
    { redirect_uri: q.redirectUri },
  );
}
