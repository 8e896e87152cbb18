// The bundled provider over real HTTP: a client anyone registered gets a consent screen and no code
// until the user allows; consent is remembered per user and client and can be withdrawn; the
// first-party console client needs none; sign-out needs a confirming POST.
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { authorizationUrl, formsOf, pkce, ProviderBrowser, signIn, type Landing } from "../helpers/provider-browser";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
let issuer: string;
const EVIL = "https://evil.example/cb";
const EVIL_NAME = `<img src=x onerror="alert(1)">Totally the console</b>`;

beforeAll(async () => {
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  issuer = `${app.baseUrl}/oidc`;
});

afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

async function register(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${issuer}/reg`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  return String(((await res.json()) as { client_id: string }).client_id);
}

const registerEvil = () =>
  register({
    client_name: EVIL_NAME,
    redirect_uris: [EVIL],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
  });

const consolePkce = pkce();

/** A browser signed in at the provider through the first-party console client. */
async function signedInBrowser(login: string): Promise<{ browser: ProviderBrowser; callback: string }> {
  const browser = new ProviderBrowser();
  const consoleCallback = `${app.baseUrl}/api/auth/callback/oidc`;
  const start = await browser.go(
    authorizationUrl(issuer, {
      client_id: "console",
      redirect_uri: consoleCallback,
      scope: "openid profile roles tenant",
      code_challenge: consolePkce.challenge,
    }),
  );
  const done = await signIn(browser, start, login, consoleCallback);
  return { browser, callback: done.url };
}

// One PKCE pair per run: a code that comes back can be redeemed, proving it was really issued.
const evilPkce = pkce();
const evilAuth = (clientId: string) =>
  authorizationUrl(issuer, {
    client_id: clientId,
    redirect_uri: EVIL,
    scope: "openid mcp",
    resource: `${app.baseUrl}/api/mcp`,
    code_challenge: evilPkce.challenge,
  });

/**
 * The landing is the redirect to `redirectUri` with a code that the token endpoint accepts for
 * `clientId`; returns the subject the ID token names (whose account the code was for).
 */
async function redeemedSubject(
  landingUrl: string,
  redirectUri: string,
  clientId: string,
  verifier: string,
  clientSecret?: string,
): Promise<string> {
  const back = new URL(landingUrl);
  expect(back.origin + back.pathname).toBe(redirectUri);
  expect(back.searchParams.get("error")).toBeNull();
  const code = back.searchParams.get("code");
  expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: clientId,
  });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (clientSecret) headers.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
  const res = await fetch(`${issuer}/token`, { method: "POST", headers, body });
  expect(res.status).toBe(200);
  const tokens = (await res.json()) as { id_token: string };
  return String(decodeJwt(tokens.id_token).sub);
}

function consentForm(landing: Landing) {
  const form = formsOf(landing.html, landing.url).find((f) => f.buttons.some((b) => b.value === "allow"));
  if (!form) throw new Error(`no consent form at ${landing.url} (HTTP ${landing.status})`);
  return form;
}

describe("dynamically registered clients need the user's consent", () => {
  it("the console client (first-party) signs in with no consent screen", async () => {
    const { callback } = await signedInBrowser("alice");
    // Straight back to the console with a code the console's own credentials redeem for alice.
    expect(
      await redeemedSubject(callback, `${app.baseUrl}/api/auth/callback/oidc`, "console", consolePkce.verifier, oidcConfig().clientSecret),
    ).toBe("user-alice-1001");
  });

  it("the reported attack: a signed-in user following a crafted link sees a consent page; Deny sends no code", async () => {
    const evil = await registerEvil();
    const { browser } = await signedInBrowser("alice");
    const landing = await browser.go(evilAuth(evil), {}, "https://evil.example");
    // Not redirected anywhere: a page asks first.
    expect(landing.status).toBe(200);
    expect(landing.url.startsWith("https://evil.example")).toBe(false);
    expect(landing.html).toContain('<span class="host"><bdi>evil.example</bdi></span>');
    expect(landing.html).toContain(`<code><bdi>${EVIL}</bdi></code>`);
    expect(landing.html).toContain("not verified");
    expect(landing.html).toContain(`${app.baseUrl}/api/mcp`);
    // The self-declared name is shown escaped, never as markup.
    expect(landing.html).not.toContain("<img");
    expect(landing.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Totally the console&lt;/b&gt;");
    const denied = await browser.submit(consentForm(landing), { decision: "deny" }, "https://evil.example");
    const back = new URL(denied.url);
    expect(back.origin + back.pathname).toBe(EVIL);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
    // A denial is not remembered as consent: the next visit asks again.
    const again = await browser.go(evilAuth(evil), {}, "https://evil.example");
    expect(again.status).toBe(200);
    expect(new URL(again.url).origin).toBe(app.baseUrl);
    expect(
      consentForm(again)
        .buttons.map((b) => b.value)
        .sort(),
    ).toEqual(["allow", "deny"]);
  });

  it("a forged consent post (no token, wrong token, foreign origin, odd decision) issues no code", async () => {
    const evil = await registerEvil();
    const { browser } = await signedInBrowser("bob");
    const landing = await browser.go(evilAuth(evil), {}, "https://evil.example");
    const form = consentForm(landing);
    const attempts: Array<[Record<string, string>, Record<string, string>]> = [
      [{ decision: "allow", csrf: "" }, {}],
      [{ decision: "allow", csrf: form.fields.csrf!.slice(1) + "A" }, {}],
      [{ decision: "allow" }, { origin: "https://evil.example" }],
      [{ decision: "allow" }, { origin: `http://localhost:1` }],
      [{ decision: "allow" }, { "sec-fetch-site": "same-site" }],
      [{ decision: "__proto__" }, {}],
    ];
    for (const [extra, headers] of attempts) {
      const res = await browser.submit(form, extra, "https://evil.example", headers);
      expect(res.url.startsWith("https://evil.example")).toBe(false);
      expect([400, 403]).toContain(res.status);
    }
    // Still waiting for a real answer, and still nothing granted: the page asks again.
    const still = await browser.go(evilAuth(evil), {}, "https://evil.example");
    expect(still.status).toBe(200);
    consentForm(still);
  });

  it("Allow issues a code; the consent is remembered for that user and client, and can be withdrawn", async () => {
    const evil = await registerEvil();
    const { browser } = await signedInBrowser("alice");
    const first = await browser.go(evilAuth(evil), {}, "https://evil.example");
    const allowed = await browser.submit(consentForm(first), { decision: "allow" }, "https://evil.example");
    // A real code, for alice's account, issued to this client only.
    expect(await redeemedSubject(allowed.url, EVIL, evil, evilPkce.verifier)).toBe("user-alice-1001");

    // Second visit: remembered, straight back with a code (again alice's).
    const second = await browser.go(evilAuth(evil), {}, "https://evil.example");
    expect(await redeemedSubject(second.url, EVIL, evil, evilPkce.verifier)).toBe("user-alice-1001");

    // Remembered per user: another user signing in on another browser is asked.
    const other = await signedInBrowser("bob");
    const bobs = await other.browser.go(evilAuth(evil), {}, "https://evil.example");
    expect(bobs.status).toBe(200);
    consentForm(bobs);

    // The consents page lists it (escaped) with a Withdraw form.
    const list = await browser.go(`${issuer}/consents`);
    expect(list.status).toBe(200);
    expect(list.html).not.toContain("<img");
    expect(list.html).toContain(evil);
    const withdraw = formsOf(list.html, list.url).find((f) => f.fields.grant && list.html.includes(evil));
    expect(withdraw).toBeDefined();

    // A forged withdrawal (no token, or from another origin, or another user's session) changes nothing.
    expect((await browser.submit(withdraw!, { csrf: "x" })).status).toBe(403);
    expect((await browser.submit(withdraw!, {}, undefined, { origin: "https://evil.example" })).status).toBe(403);
    const bobTries = await other.browser.submit({ ...withdraw!, fields: { ...withdraw!.fields } });
    expect(bobTries.status).toBe(403);
    const bobList = await other.browser.go(`${issuer}/consents`);
    const bobForm = formsOf(bobList.html, bobList.url)[0];
    expect(bobForm).toBeUndefined();
    // Alice's consent still stands after the forged withdrawals: a code still comes straight back.
    expect(await redeemedSubject((await browser.go(evilAuth(evil), {}, "https://evil.example")).url, EVIL, evil, evilPkce.verifier)).toBe(
      "user-alice-1001",
    );

    // The real withdrawal: gone from the list, and the next visit asks again.
    const after = await browser.submit(withdraw!);
    expect(after.status).toBe(200);
    expect(after.html).toContain("Consent withdrawn.");
    expect(after.html).not.toContain(evil);
    const third = await browser.go(evilAuth(evil), {}, "https://evil.example");
    expect(third.status).toBe(200);
    consentForm(third);
  });

  it("a registered client using the device flow under the CLI's name: marked unverified, and no token without consent", async () => {
    const lookalike = await register({
      client_name: "ctl, the operator command line",
      redirect_uris: [],
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
      response_types: [],
      token_endpoint_auth_method: "none",
    });
    const started = await fetch(`${issuer}/device/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: lookalike, scope: "openid" }).toString(),
    });
    const device = (await started.json()) as { verification_uri_complete: string; device_code: string };
    const { browser } = await signedInBrowser("alice");
    const posting = await browser.go(device.verification_uri_complete);
    const confirmPage = await browser.submit(formsOf(posting.html, posting.url)[0]!);
    expect(confirmPage.html).toContain("not verified");
    const consent = await browser.submit(formsOf(confirmPage.html, confirmPage.url).find((f) => f.fields.confirm === "yes")!);
    expect(consent.html).toContain("device sign-in: no redirect");
    const poll = () =>
      fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: device.device_code,
          client_id: lookalike,
        }).toString(),
      }).then((r) => r.json() as Promise<{ error?: string; id_token?: string }>);
    expect((await poll()).error).toBe("authorization_pending");
    await browser.submit(consentForm(consent), { decision: "deny" });
    const after = await poll();
    expect(after.id_token).toBeUndefined();
    expect(after.error).toBe("access_denied");
  });

  it("the consents page needs a signed-in user", async () => {
    const res = await fetch(`${issuer}/consents`);
    expect(res.status).toBe(401);
    const post = await fetch(`${issuer}/consents/withdraw`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant=x&csrf=y",
    });
    expect(post.status).toBe(401);
  });

  it("sign-out asks first: a GET ends nothing, a post without the page's token ends nothing, the confirmed post does", async () => {
    const { browser } = await signedInBrowser("alice");
    const ask = await browser.go(
      `${issuer}/session/end?client_id=console&post_logout_redirect_uri=${encodeURIComponent(`${app.baseUrl}/signed-out`)}`,
    );
    expect(ask.status).toBe(200);
    expect(ask.html).not.toContain("<script");
    expect(ask.html).toContain("Sign out of");
    expect(ask.headers.get("x-frame-options")).toBe("DENY");
    expect((await browser.go(`${issuer}/consents`)).status).toBe(200);

    const form = formsOf(ask.html, ask.url).find((f) => f.id === "op.logoutForm")!;
    expect(form.buttons).toContainEqual({ name: "logout", value: "yes" });
    const forged = await browser.submit(
      { ...form, fields: { ...form.fields, xsrf: "forged" } },
      { logout: "yes" },
      app.baseUrl + "/signed-out",
    );
    expect(forged.status).toBe(400);
    expect((await browser.go(`${issuer}/consents`)).status).toBe(200);

    const done = await browser.submit(form, { logout: "yes" }, `${app.baseUrl}/signed-out`);
    expect(done.url).toBe(`${app.baseUrl}/signed-out`);
    expect((await browser.go(`${issuer}/consents`)).status).toBe(401);
  });
});
