// The console's sign-in and sign-out and the MCP endpoint against the bundled provider dressed as
// three kinds of issuer (lib/auth/dev-idp/issuer-profiles.ts), each over real HTTP with the
// settings a deployment would give for it: plain roles and at+jwt; Entra-like groups, `tid` and
// typ "JWT" with a different end-session path; Keycloak-like nested groups, a tenant array, no
// `typ` and no end-session endpoint at all.
import * as oidc from "openid-client";
import { decodeProtectedHeader } from "jose";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { endSessionUrl } from "@/lib/auth/end-session";
import { BearerError, createBearerVerifier } from "@/lib/auth/mcp-bearer";
import { safeRedirect, sessionClaims } from "@/lib/auth/next-auth-options";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { connectClient } from "../helpers/mcp-client";
import { loginAtProvider } from "../helpers/provider-login";
import { createTestStore, type TestStore } from "../helpers/test-store";

const ROLE_MAP = "gateway-admins=admin,gateway-operators=operator,gateway-auditors=auditor,gateway-viewers=viewer";

const CASES = [
  { profile: "standard", env: {}, typ: "at+jwt", endSession: "/oidc/session/end" },
  {
    profile: "groups",
    env: {
      OIDC_ROLES_CLAIM: "groups",
      OIDC_ROLE_MAP: ROLE_MAP,
      OIDC_TENANT_CLAIM: "tid",
      OIDC_ACCESS_TOKEN_TYP: "JWT",
      OIDC_SCOPES: "openid profile groups",
    },
    typ: "JWT",
    endSession: "/oidc/oauth2/v2.0/logout",
  },
  {
    profile: "nested",
    env: {
      OIDC_ROLES_CLAIM: "realm_access.roles",
      OIDC_ROLE_MAP: ROLE_MAP,
      OIDC_TENANT_CLAIM: "organization",
      OIDC_ACCESS_TOKEN_TYP: "any",
      OIDC_SCOPES: "openid profile",
    },
    typ: undefined,
    endSession: null,
  },
] as const;

const SETTINGS = ["DEV_IDP_PROFILE", "OIDC_ROLES_CLAIM", "OIDC_ROLE_MAP", "OIDC_TENANT_CLAIM", "OIDC_ACCESS_TOKEN_TYP", "OIDC_SCOPES"];
let t: TestStore;

beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t?.dispose();
});

describe.each(CASES)("issuer shaped $profile", (c) => {
  let app: TestAppServer;
  beforeAll(async () => {
    for (const k of SETTINGS) delete process.env[k];
    Object.assign(process.env, { DEV_IDP_PROFILE: c.profile, ...c.env });
    app = await startAppServer(t.store.db);
  });
  afterAll(async () => {
    await app?.close();
    for (const k of SETTINGS) delete process.env[k];
  });

  it("signs an operator in to the console with the roles and tenant its claims carry", async () => {
    const cfg = oidcConfig();
    const config = await oidc.discovery(new URL(cfg.issuer), cfg.clientId, undefined, oidc.ClientSecretBasic(cfg.clientSecret), {
      execute: [oidc.allowInsecureRequests],
    });
    const redirectUri = `${cfg.appUrl}/api/auth/callback/oidc`;
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: cfg.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await loginAtProvider(url.toString(), "admin", redirectUri);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe("op-admin-0001");
    // The claims arrive in the issuer's own shape...
    if (c.profile === "groups") expect(claims).toMatchObject({ groups: ["everyone", "gateway-admins"], tid: "acme" });
    if (c.profile === "nested")
      expect(claims).toMatchObject({ realm_access: { roles: ["offline_access", "gateway-admins"] }, organization: ["acme"] });
    if (c.profile === "standard") expect(claims).toMatchObject({ roles: ["admin"], tenant: "acme" });
    // ...and the console reads them through the deployment's settings.
    expect(sessionClaims(claims as Record<string, unknown>, cfg)).toEqual({ roles: ["admin"], tenant: "acme" });
    // Without the map, a group called after a role grants nothing; only role names would.
    expect(sessionClaims(claims as Record<string, unknown>, { ...cfg, roleMap: new Map() }).roles).toEqual(
      c.profile === "standard" ? ["admin"] : [],
    );
  });

  it("signs out at the end-session endpoint the issuer advertises, or locally when it has none", async () => {
    const cfg = oidcConfig();
    const doc = (await (await fetch(`${cfg.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const target = new URL(await endSessionUrl(cfg));
    if (c.endSession === null) {
      expect(doc).not.toHaveProperty("end_session_endpoint");
      expect(target.toString()).toBe(`${app.baseUrl}/signed-out`);
      return;
    }
    expect(doc.end_session_endpoint).toBe(`${app.baseUrl}${c.endSession}`);
    expect(`${target.origin}${target.pathname}`).toBe(`${app.baseUrl}${c.endSession}`);
    expect(target.searchParams.get("client_id")).toBe("console");
    expect(target.searchParams.get("post_logout_redirect_uri")).toBe(`${app.baseUrl}/signed-out`);
    // The issuer really serves it: its confirmation page (sign-out happens only on its form post).
    const page = await fetch(target, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<form/);
  });

  it("lets next-auth redirect only home or to the issuer's sign-out, never elsewhere", async () => {
    const cfg = oidcConfig();
    const base = cfg.appUrl;
    const signOut = await endSessionUrl(cfg);
    expect(await safeRedirect(signOut, base, cfg)).toBe(signOut);
    expect(await safeRedirect("/console?x=1", base, cfg)).toBe(`${base}/console?x=1`);
    for (const evil of [
      "https://evil.example/oidc/session/end",
      "//evil.example/x",
      "/\\evil.example",
      "http://localhost:notaport/",
      `${cfg.issuer.replace("localhost", "127.0.0.1")}/x`,
    ]) {
      expect(await safeRedirect(evil, base, cfg)).toBe(base);
    }
  });

  it("admits the issuer's access tokens at /api/mcp with the configured typ and tenant claim", async () => {
    const cfg = oidcConfig();
    const token = await mintMcpAccessToken(createDevProvider(), {
      subject: "user-alice-1001",
      tenant: "acme",
      ttlSeconds: 300,
      mcpResource: cfg.mcpResource,
    });
    expect(decodeProtectedHeader(token).typ).toBe(c.typ);
    const client = await connectClient(cfg.mcpResource, token, { capabilities: {} });
    const tools = await client.client.listTools();
    expect(tools.tools.length).toBeGreaterThan(0);
    await client.close();
    // The session was bound to the tenant read from the profile's own claim.
    const [session] = rowsOf<{ tenant_id: string }>(
      await t.store.db.execute(sql`select tenant_id from mcp_sessions where subject = 'user-alice-1001' order by created_at desc limit 1`),
    );
    expect(session?.tenant_id).toBe("acme");
  });

  it("a deployment that still demands at+jwt refuses this issuer's tokens unless it is that issuer", async () => {
    const cfg = oidcConfig();
    const token = await mintMcpAccessToken(createDevProvider(), {
      subject: "user-alice-1001",
      tenant: "acme",
      ttlSeconds: 300,
      mcpResource: cfg.mcpResource,
    });
    const strict = createBearerVerifier({
      issuer: cfg.issuer,
      audience: cfg.mcpResource,
      tenantClaim: cfg.tenantClaim,
      requiredTyp: "at+jwt",
    });
    if (c.typ === "at+jwt") {
      await expect(strict(`Bearer ${token}`)).resolves.toMatchObject({ subject: "user-alice-1001", tenant: "acme" });
    } else {
      await expect(strict(`Bearer ${token}`)).rejects.toThrow(BearerError);
    }
    // The tenant claim is read where this issuer puts it and nowhere else.
    const elsewhere = createBearerVerifier({
      issuer: cfg.issuer,
      audience: cfg.mcpResource,
      tenantClaim: c.profile === "standard" ? "tid" : "tenant",
      requiredTyp: cfg.accessTokenTyp ?? null,
    });
    await expect(elsewhere(`Bearer ${token}`)).rejects.toThrow(/no tenant/);
  });
});
