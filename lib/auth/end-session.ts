// Where "Sign out" sends the browser once the local session is gone: the issuer's RP-initiated
// logout endpoint as its discovery document names it (`end_session_endpoint`), whatever its path.
// An issuer that advertises none gets a local sign-out only: the console session ends here and
// the browser lands on /signed-out (the issuer's own session is the issuer's business).
import { tracedFetch } from "@/lib/telemetry/traced-fetch";
import { oidcConfig, type OidcConfig } from "./oidc-config";

const cache = new Map<string, Promise<string | null>>();

/** The issuer's end-session endpoint, or null when it has none. Discovery failures are retried next time. */
export function discoverEndSession(issuer: string): Promise<string | null> {
  let found = cache.get(issuer);
  if (!found) {
    found = (async () => {
      const res = await tracedFetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`issuer discovery failed with HTTP ${res.status}`);
      const doc = (await res.json()) as { issuer?: unknown; end_session_endpoint?: unknown };
      // The document must name exactly the configured issuer (mix-up defence), as for the keys.
      if (doc.issuer !== issuer) throw new Error("issuer discovery returned a different issuer");
      const endpoint = doc.end_session_endpoint;
      if (typeof endpoint !== "string") return null;
      const u = new URL(endpoint);
      if (u.protocol !== "https:" && u.protocol !== new URL(issuer).protocol) throw new Error("end_session_endpoint is not https");
      return u.toString();
    })();
    found.catch(() => cache.delete(issuer));
    cache.set(issuer, found);
  }
  return found;
}

/**
 * The URL "Sign out" ends at: the issuer's end-session endpoint with client_id and the
 * registered post-logout redirect, or this app's /signed-out page when the issuer has none or
 * cannot be reached (the local sign-out still happens; nothing waits on the issuer).
 */
export async function endSessionUrl(cfg: OidcConfig = oidcConfig()): Promise<string> {
  const local = `${cfg.appUrl}/signed-out`;
  const endpoint = await discoverEndSession(cfg.issuer).catch(() => null);
  if (!endpoint) return local;
  const u = new URL(endpoint);
  u.searchParams.set("client_id", cfg.clientId);
  u.searchParams.set("post_logout_redirect_uri", local);
  return u.toString();
}

/** Origins sign-out may redirect to: the issuer's and its end-session endpoint's (when known). */
export async function signOutOrigins(cfg: OidcConfig): Promise<Set<string>> {
  const origins = new Set([new URL(cfg.issuer).origin]);
  const endpoint = await discoverEndSession(cfg.issuer).catch(() => null);
  if (endpoint) origins.add(new URL(endpoint).origin);
  return origins;
}
