// next-auth (v4) configuration for console and connect-page sign-in against the authoritative
// OIDC issuer. JWT sessions in an httpOnly, SameSite=Lax cookie (Secure when APP_URL is https),
// bounded by SESSION_MAX_AGE_SECONDS. This module reads configuration only; the operator row is
// synced at sign-in through lib/auth/sign-in-sync.ts, and every request re-checks roles server-side.
import type { NextAuthOptions } from "next-auth";
import { getDb } from "@/db";
import { endConsoleSession, startConsoleSession } from "./console-sessions";
import { claimAt, rolesFromClaimValue, tenantFromClaimValue } from "./claims";
import { signOutOrigins } from "./end-session";
import { oidcConfig, type OidcConfig } from "./oidc-config";
import type { Role } from "./permissions";
import { syncOperatorAtSignIn } from "./sign-in-sync";

export interface SessionUser {
  sub: string;
  /** The server-side session row this cookie names (lib/auth/console-sessions.ts). */
  sid: string;
  name: string;
  roles: Role[];
  tenant: string | null;
}

declare module "next-auth" {
  interface Session {
    user: SessionUser;
  }
}

let cached: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  const cfg = oidcConfig();
  process.env.NEXTAUTH_URL ??= cfg.appUrl;
  cached = {
    secret: cfg.sessionSecret,
    session: { strategy: "jwt", maxAge: cfg.sessionMaxAgeSeconds },
    jwt: { maxAge: cfg.sessionMaxAgeSeconds },
    useSecureCookies: cfg.appUrl.startsWith("https://"),
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      {
        id: "oidc",
        name: cfg.devProvider ? "Development identity provider" : "Single sign-on",
        type: "oauth",
        wellKnown: `${cfg.issuer}/.well-known/openid-configuration`,
        clientId: cfg.clientId,
        clientSecret: cfg.clientSecret,
        authorization: { params: { scope: cfg.scopes } },
        idToken: true,
        checks: ["pkce", "state", "nonce"],
        profile(profile: Record<string, unknown>) {
          return { id: String(profile.sub), name: typeof profile.name === "string" ? profile.name : String(profile.sub) };
        },
      },
    ],
    callbacks: {
      async jwt({ token, profile }) {
        if (profile) {
          const p = profile as Record<string, unknown>;
          token.sub = String(p.sub);
          const claims = sessionClaims(p, cfg);
          token.roles = claims.roles;
          token.tenant = claims.tenant;
          // A new server-side session per sign-in: the cookie is only valid while its row is.
          token.sid = await startConsoleSession(await getDb(), String(p.sub), cfg.sessionMaxAgeSeconds);
        }
        return token;
      },
      async session({ session, token }) {
        session.user = {
          sub: String(token.sub),
          sid: typeof token.sid === "string" ? token.sid : "",
          name: String(token.name ?? token.sub),
          roles: (token.roles as Role[] | undefined) ?? [],
          tenant: (token.tenant as string | null | undefined) ?? null,
        };
        return session;
      },
      async redirect({ url, baseUrl }) {
        return safeRedirect(url, baseUrl, cfg);
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.sub) await endConsoleSession(await getDb(), token.sid, String(token.sub));
      },
      async signIn({ profile }) {
        if (!profile) return;
        const p = profile as Record<string, unknown>;
        await syncOperatorAtSignIn(await getDb(), {
          subject: String(p.sub),
          displayName: typeof p.name === "string" ? p.name : String(p.sub),
          roles: sessionClaims(p, cfg).roles,
        });
      },
    },
  };
  return cached;
}

/**
 * Where next-auth may send the browser: same-origin paths, and the issuer's (or its end-session
 * endpoint's) origin for sign-out; anything else (another host, "//evil", "/\\evil", an unparseable
 * URL such as a port that is not a number) goes home instead of failing the request.
 */
export async function safeRedirect(url: string, baseUrl: string, cfg: OidcConfig): Promise<string> {
  if (/^\/(?![/\\])/.test(url)) return `${baseUrl}${url}`;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return baseUrl;
  }
  if (target.origin === baseUrl || (await signOutOrigins(cfg)).has(target.origin)) return target.toString();
  return baseUrl;
}

/**
 * Roles and tenant from a verified ID token's claims, the way this deployment's issuer sends them:
 * a claim path (nested claims), strings or arrays, group names mapped by OIDC_ROLE_MAP.
 */
export function sessionClaims(
  profile: Record<string, unknown>,
  cfg: Pick<OidcConfig, "rolesClaim" | "roleMap" | "tenantClaim">,
): { roles: Role[]; tenant: string | null } {
  return {
    roles: rolesFromClaimValue(claimAt(profile, cfg.rolesClaim), cfg.roleMap),
    tenant: tenantFromClaimValue(claimAt(profile, cfg.tenantClaim)),
  };
}

// Sign-out's destination comes from the issuer's discovery document (lib/auth/end-session.ts).
export { endSessionUrl } from "./end-session";
