// The production build (`ctl serve`) against the bundled provider dressed as two other issuers
// (lib/auth/dev-idp/issuer-profiles.ts), configured as a deployment would configure for them:
// Chromium signs in to the console, the roles come from mapped groups, sign-out ends at the
// issuer's own end-session path or (no such endpoint) locally; the SDK's MCP client calls a tool
// with that issuer's access token; and /api/metrics counts it per instance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareDeployment, startInstance, freePort, type Deployment, type Instance } from "../../bench/deployment";
import { launchBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { connectClient } from "../helpers/mcp-client";
import { signIn } from "../helpers/sign-in";

const ROLE_MAP =
  "gateway-admins=admin,gateway-operators=operator,gateway-releasers=releaser,gateway-approvers=approver,gateway-auditors=auditor,gateway-viewers=viewer";

const CASES = [
  {
    profile: "groups",
    env: {
      DEV_IDP_PROFILE: "groups",
      OIDC_ROLES_CLAIM: "groups",
      OIDC_ROLE_MAP: ROLE_MAP,
      OIDC_TENANT_CLAIM: "tid",
      OIDC_ACCESS_TOKEN_TYP: "JWT",
      OIDC_SCOPES: "openid profile groups",
    },
    signOutPath: "/oidc/oauth2/v2.0/logout",
  },
  {
    profile: "nested",
    env: {
      DEV_IDP_PROFILE: "nested",
      OIDC_ROLES_CLAIM: "realm_access.roles",
      OIDC_ROLE_MAP: ROLE_MAP,
      OIDC_TENANT_CLAIM: "organization",
      OIDC_ACCESS_TOKEN_TYP: "any",
      OIDC_SCOPES: "openid profile",
    },
    signOutPath: "/signed-out",
  },
] as const;

describe.each(CASES)("a deployment on an issuer shaped $profile", (c) => {
  let dep: Deployment;
  let app: Instance;
  beforeAll(async () => {
    const port = await freePort();
    dep = await prepareDeployment(`http://localhost:${port}`, { postgres: process.env.DATABASE_URL || undefined });
    app = await startInstance(dep, { port, env: c.env });
  });
  afterAll(async () => {
    await app?.stop();
    await dep?.dispose();
  });

  it("signs an admin in to the console from mapped groups, and signs out where the issuer says", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await signIn(page, app.baseUrl, "admin", "/console/operators");
      // An admin-only page: the role came from the mapped group, not from a role claim.
      expect(new URL(page.url()).pathname).toBe("/console/operators");
      expect(await page.getByTestId("forbidden").count()).toBe(0);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).not.toMatch(/Not allowed/);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL((u) => u.pathname === c.signOutPath);
      // The console session is gone either way.
      await page.goto(`${app.baseUrl}/console`);
      await page.waitForURL(/\/sign-in/);
    } finally {
      await browser.close();
    }
  });

  it("a viewer's groups grant no admin page", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await signIn(page, app.baseUrl, "viewer", "/console");
      await page.goto(`${app.baseUrl}/console/operators`);
      expect(await page.getByTestId("forbidden").textContent()).toMatch(/operators\.manage/);
    } finally {
      await browser.close();
    }
  });

  it("admits this issuer's MCP access tokens and counts the call per instance", async () => {
    const minted = await runCli(["token", "--subject", "user-alice-1001", "--json"], {
      ...process.env,
      ...dep.secrets,
      ...c.env,
      DATA_DIR: dep.dataDir,
      DATABASE_URL: dep.databaseUrl ?? "",
      APP_URL: app.baseUrl,
      APP_ENV: "development",
    });
    expect(minted.code).toBe(0);
    const { access_token: token } = JSON.parse(minted.stdout) as { access_token: string };
    const client = await connectClient(`${app.baseUrl}/api/mcp`, token, { capabilities: {} });
    expect((await client.client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    const metrics = await (
      await fetch(`${app.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${dep.secrets.METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(/^mcp_requests_total\{method="tools\/list",outcome="ok"\} [1-9]/m);
    expect(metrics).toMatch(/^http_server_requests_total\{route="\/api\/mcp",method="POST",status="2xx"\} [1-9]/m);
  });
});
