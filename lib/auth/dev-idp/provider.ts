// The bundled development identity provider, built on oidc-provider: authorization code with
// PKCE, resource indicators (RFC 8707) issuing RFC 9068 JWT access tokens for the MCP resource,
// dynamic client registration (so a real MCP client can sign in the standard way), the device
// authorization grant for `ctl login` (RFC 8628), and RP-initiated logout for the console.
// Served at APP_URL/oidc by the app server.
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { Env } from "@/db/config";
import { readSetting } from "@/lib/config/schema";
import { DEV_CLI_CLIENT_ID, DEV_CONSOLE_CLIENT_ID, oidcConfig } from "@/lib/auth/oidc-config";
import { DEMO_CLIENT_PROFILES } from "@/lib/demo/clients";
import { accountBySubject } from "./accounts";
import { escapeHtml } from "./escape-html";
import { issuerProfile, type IssuerProfile } from "./issuer-profiles";
import { devCookieKeys, devJwks } from "./keys";
import { deviceSuccessSource, logoutSource, postLogoutSuccessSource, userCodeConfirmSource, userCodeInputSource } from "./provider-pages";
import { createMemoryRecordStore, createStateAdapter, type IdpRecordStore } from "./state-adapter";

export const CTL_CLIENT_ID = DEV_CLI_CLIENT_ID;
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const MCP_SCOPE = "mcp";
const ACCESS_TOKEN_TTL = 3600;

export function resourceServerInfo(resource: string, ttl = ACCESS_TOKEN_TTL, scope = MCP_SCOPE) {
  return { scope, audience: resource, accessTokenFormat: "jwt" as const, accessTokenTTL: ttl, jwt: { sign: { alg: "RS256" as const } } };
}

export interface ProviderSpec {
  issuer: string;
  prefix: string;
  keyName: string;
  clients: Configuration["clients"];
  resource: string;
  scope: string;
  env: Env;
  /** Where sessions, grants, clients and codes live; process memory unless given. */
  records?: IdpRecordStore;
  /** RFC 8628 device authorization grant (the authoritative issuer only, for `ctl login`). */
  deviceFlow?: boolean;
  /** The shape of claims, tokens and logout (issuer-profiles.ts); standard unless given. */
  profile?: IssuerProfile;
}

/** What the interaction handlers need to know about a provider beyond oidc-provider's own API. */
export interface ProviderInfo {
  issuer: string;
  keyName: string;
  env: Env;
  /** The statically configured clients: first-party, so they get no consent screen. */
  firstParty: ReadonlySet<string>;
  records: IdpRecordStore;
}

const infos = new WeakMap<Provider, ProviderInfo>();

export function providerInfo(provider: Provider): ProviderInfo {
  const info = infos.get(provider);
  if (!info) throw new Error("not a provider built by createProviderFor");
  return info;
}

/** The newest live grant this account gave this client, if any (consent is per client and user). */
export async function rememberedGrantId(records: IdpRecordStore, accountId: string, clientId: string): Promise<string | undefined> {
  const grants = (await records.listByAccount("Grant", accountId)).filter((r) => r.payload.clientId === clientId);
  grants.sort((a, b) => Number(b.payload.iat ?? 0) - Number(a.payload.iat ?? 0));
  return grants[0]?.id;
}

// Shared by the authoritative development issuer and the demo downstream provider.
export function createProviderFor(spec: ProviderSpec): Provider {
  const firstParty = new Set((spec.clients ?? []).map((c) => c.client_id));
  const records = spec.records ?? createMemoryRecordStore();
  const profile = spec.profile ?? issuerProfile({});
  const configuration: Configuration = {
    adapter: createStateAdapter(records),
    clients: spec.clients,
    jwks: devJwks(spec.env, spec.keyName) as Configuration["jwks"],
    cookies: { keys: devCookieKeys(spec.env, spec.keyName) },
    // Put name, roles and tenant in the ID token itself (not only at userinfo): the console reads
    // them from the signed, nonce-bound ID token.
    conformIdTokenClaims: false,
    claims: profile.claims,
    scopes: ["openid", "profile", ...profile.scopes, spec.scope],
    async findAccount(_ctx, id) {
      const account = accountBySubject(id);
      if (!account) return undefined;
      return {
        accountId: account.subject,
        claims: async () => ({ sub: account.subject, name: account.name, ...profile.identityClaims(account) }),
      };
    },
    async extraTokenClaims(_ctx, token) {
      // A tenant set explicitly on the token (ctl token --tenant) wins; otherwise the account's.
      const explicit = (token as { extra?: { tenant?: unknown } }).extra?.tenant;
      const account = "accountId" in token && token.accountId ? accountBySubject(token.accountId) : undefined;
      const tenant = typeof explicit === "string" ? explicit : account?.tenant;
      return tenant ? profile.accessTokenClaims(tenant) : undefined;
    },
    // First-party (statically configured) clients: the signed-in user's grant covers what the
    // client asked for, so there is no consent screen to click through. Any other client (one
    // registered through /reg by anyone) gets only what the user allowed on the consent screen;
    // oidc-provider prompts for consent whenever the request asks for more than that grant holds.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const accountId = oidc.session?.accountId;
      if (!accountId || !oidc.client) return undefined;
      if (!firstParty.has(oidc.client.clientId)) {
        const id = oidc.result?.consent?.grantId || (await rememberedGrantId(records, accountId, oidc.client.clientId));
        const grant = id ? await ctx.oidc.provider.Grant.find(id) : undefined;
        return grant && grant.accountId === accountId && grant.clientId === oidc.client.clientId ? grant : undefined;
      }
      const existing = oidc.result?.consent?.grantId || oidc.session?.grantIdFor(oidc.client.clientId);
      const grant = existing ? await ctx.oidc.provider.Grant.find(existing) : undefined;
      const g = grant ?? new ctx.oidc.provider.Grant({ accountId, clientId: oidc.client.clientId });
      const scope = String(oidc.params?.scope ?? "openid");
      const oidcScopes = scope.split(" ").filter((s) => s && s !== spec.scope);
      if (oidcScopes.length) g.addOIDCScope(oidcScopes.join(" "));
      const resource = oidc.params?.resource;
      for (const r of Array.isArray(resource) ? resource : resource ? [resource] : []) {
        if (r === spec.resource) g.addResourceScope(r, spec.scope);
      }
      await g.save();
      return g;
    },
    // The access token's `typ` as the impersonated issuer sends it (a header field set to
    // undefined is left out of the JWT header altogether).
    ...(profile.accessTokenTyp === "at+jwt"
      ? {}
      : {
          formats: { customizers: { jwt: async (_ctx, _token, jwt) => void (jwt.header = { typ: profile.accessTokenTyp ?? undefined }) } },
        }),
    ...(profile.endSessionPath && profile.endSessionPath !== "/session/end" ? { routes: { end_session: profile.endSessionPath } } : {}),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      // Sign-out never happens on a GET: the page asks, and only its form post (with the
      // session's xsrf token) ends the session.
      rpInitiatedLogout: { enabled: profile.endSessionPath !== null, logoutSource, postLogoutSuccessSource },
      deviceFlow: { enabled: spec.deviceFlow ?? false, userCodeInputSource, userCodeConfirmSource, successSource: deviceSuccessSource },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          // Only this provider's own resource: tokens for anything else are not issued.
          if (resourceIndicator !== spec.resource) throw new errors.InvalidTarget();
          return resourceServerInfo(spec.resource, ACCESS_TOKEN_TTL, spec.scope);
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${spec.prefix}/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: 3600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><html lang="en"><head><title>Sign-in error</title></head><body><main><h1>Sign-in error</h1><p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ""))}</p></main></body></html>`;
    },
  };
  const provider = new Provider(spec.issuer, configuration);
  // Behind a TLS-terminating proxy the app sees plain HTTP; trust X-Forwarded-* there.
  provider.proxy = readSetting(spec.env, "TRUST_PROXY") === true;
  infos.set(provider, { issuer: spec.issuer, keyName: spec.keyName, env: spec.env, firstParty, records });
  return provider;
}

export function createDevProvider(env: Env = process.env, records?: IdpRecordStore): Provider {
  const cfg = oidcConfig(env);
  if (!cfg.devProvider) throw new Error("the development identity provider is not in use (OIDC_ISSUER is set)");
  return createProviderFor({
    issuer: cfg.issuer,
    prefix: "/oidc",
    keyName: "dev-oidc",
    env,
    records,
    deviceFlow: true,
    profile: issuerProfile(env),
    resource: cfg.mcpResource,
    scope: MCP_SCOPE,
    clients: [
      {
        client_id: DEV_CONSOLE_CLIENT_ID,
        client_secret: cfg.clientSecret,
        redirect_uris: [`${cfg.appUrl}/api/auth/callback/oidc`],
        post_logout_redirect_uris: [cfg.appUrl, `${cfg.appUrl}/signed-out`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      // The operator command line: a public client that signs in only through the device
      // authorization grant (`ctl login`); `ctl token` also mints its in-process tokens as it.
      {
        client_id: CTL_CLIENT_ID,
        client_name: "ctl, the operator command line",
        token_endpoint_auth_method: "none",
        redirect_uris: [],
        grant_types: [DEVICE_CODE_GRANT],
        response_types: [],
      },
      // The demo's client software ids: they exist so `ctl token --client ID` (and tests) can mint a
      // token whose verified client_id selects that client profile; no redirect, no grant type.
      ...staticClientIds()
        .filter((id) => id !== CTL_CLIENT_ID)
        .map((id) => ({
          client_id: id,
          token_endpoint_auth_method: "none" as const,
          redirect_uris: [],
          grant_types: [],
          response_types: [],
        })),
    ],
  });
}

/** The client ids the development provider mints tokens for in-process: ctl and the demo clients. */
export function staticClientIds(): string[] {
  return [...new Set([CTL_CLIENT_ID, ...DEMO_CLIENT_PROFILES.map((p) => p.clientId)])];
}

/**
 * Mints an MCP access token in-process (ctl token), signed with the persisted development keys.
 * `clientId` (default ctl) must be one of staticClientIds(): it becomes the token's client_id.
 */
export async function mintMcpAccessToken(
  provider: Provider,
  opts: { subject: string; tenant: string; ttlSeconds: number; mcpResource: string; clientId?: string },
): Promise<string> {
  const clientId = opts.clientId ?? CTL_CLIENT_ID;
  if (!staticClientIds().includes(clientId))
    throw new Error(`the development provider mints tokens only for ${staticClientIds().join(", ")}`);
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error(`client ${clientId} missing from the development provider`);
  const grant = new provider.Grant({ accountId: opts.subject, clientId });
  grant.addResourceScope(opts.mcpResource, MCP_SCOPE);
  const grantId = await grant.save();
  const token = new provider.AccessToken({
    accountId: opts.subject,
    client,
    grantId,
    gty: "authorization_code",
    scope: MCP_SCOPE,
    expiresIn: opts.ttlSeconds,
    resourceServer: new provider.ResourceServer(opts.mcpResource, resourceServerInfo(opts.mcpResource, opts.ttlSeconds)),
  });
  token.extra = { tenant: opts.tenant };
  return token.save();
}
