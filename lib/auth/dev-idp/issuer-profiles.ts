// The bundled provider can impersonate the shape of other issuers (DEV_IDP_PROFILE), so the
// console and the MCP endpoint are proven against claims as mainstream issuers really send them,
// not only as this product would like them:
// - standard: roles and tenant as plain claims, RFC 9068 `at+jwt` access tokens, end session at
//   /oidc/session/end (this product's own convention);
// - groups: Entra-like. Group names in a `groups` array (mapped to roles by OIDC_ROLE_MAP), the
//   tenant in `tid`, access tokens typed "JWT", end session at /oidc/oauth2/v2.0/logout;
// - nested: Keycloak-like. Group names in `realm_access.roles`, the tenant as a one-element
//   `organization` array, access tokens with no `typ`, and no end-session endpoint at all.
// Development and tests only: the provider itself never runs in production unless forced.
import type { Configuration } from "oidc-provider";
import type { Env } from "@/db/config";

export const ISSUER_PROFILES = ["standard", "groups", "nested"] as const;
export type IssuerProfileName = (typeof ISSUER_PROFILES)[number];

export interface IssuerProfile {
  name: IssuerProfileName;
  /** oidc-provider's scope -> claims table. */
  claims: NonNullable<Configuration["claims"]>;
  scopes: string[];
  /** The account's ID-token / userinfo claims beyond sub and name. */
  identityClaims(account: { roles: string[]; tenant: string }): Record<string, unknown>;
  /** Claims added to every access token. */
  accessTokenClaims(tenant: string): Record<string, unknown>;
  /** The access token's JOSE `typ`: a value, or null for none. */
  accessTokenTyp: string | null;
  /** The end-session path under the provider's prefix, or null: no RP-initiated logout. */
  endSessionPath: string | null;
}

/** The group name the groups and nested profiles use for a role (what OIDC_ROLE_MAP maps back). */
export const groupOf = (role: string) => `gateway-${role}s`;

const PROFILES: Record<IssuerProfileName, IssuerProfile> = {
  standard: {
    name: "standard",
    claims: { openid: ["sub"], profile: ["name"], roles: ["roles"], tenant: ["tenant"] },
    scopes: ["roles", "tenant"],
    identityClaims: (a) => ({ roles: a.roles, tenant: a.tenant }),
    accessTokenClaims: (tenant) => ({ tenant }),
    accessTokenTyp: "at+jwt",
    endSessionPath: "/session/end",
  },
  groups: {
    name: "groups",
    claims: { openid: ["sub", "tid"], profile: ["name"], groups: ["groups"] },
    scopes: ["groups"],
    identityClaims: (a) => ({ groups: ["everyone", ...a.roles.map(groupOf)], tid: a.tenant }),
    accessTokenClaims: (tenant) => ({ tid: tenant }),
    accessTokenTyp: "JWT",
    endSessionPath: "/oauth2/v2.0/logout",
  },
  nested: {
    name: "nested",
    claims: { openid: ["sub"], profile: ["name", "realm_access", "organization"] },
    scopes: [],
    identityClaims: (a) => ({ realm_access: { roles: ["offline_access", ...a.roles.map(groupOf)] }, organization: [a.tenant] }),
    accessTokenClaims: (tenant) => ({ organization: [tenant] }),
    accessTokenTyp: null,
    endSessionPath: null,
  },
};

export function issuerProfile(env: Env = process.env): IssuerProfile {
  const raw = env.DEV_IDP_PROFILE?.trim() || "standard";
  if (!(ISSUER_PROFILES as readonly string[]).includes(raw))
    throw new Error(`DEV_IDP_PROFILE must be one of ${ISSUER_PROFILES.join(", ")}`);
  return PROFILES[raw as IssuerProfileName];
}
