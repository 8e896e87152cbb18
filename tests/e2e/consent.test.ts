// The reported attack in a real browser against the production build: anyone registers a client
// redirecting to evil.example; a signed-in user who opens the crafted link sees a consent screen
// (accessible, the client's self-declared name shown as text) and nothing reaches evil.example
// until they choose; consent can be withdrawn; sign-out asks before it ends the session.
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");
const NAME = `<img src=x onerror="document.title='owned'">Console`;

describe("consent at the bundled provider", () => {
  it("asks before a registered client gets a code, remembers Allow, withdraws, and sign-out asks first", async () => {
    const reg = await fetch(`${base()}/oidc/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: NAME, redirect_uris: ["https://evil.example/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(reg.status).toBe(201);
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const crafted = new URL(`${base()}/oidc/auth`);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      response_type: "code",
      redirect_uri: "https://evil.example/cb",
      scope: "openid mcp",
      resource: `${base()}/api/mcp`,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }))
      crafted.searchParams.set(k, v);

    // bypassCSP only so axe-core can be injected for the accessibility checks: the provider's
    // pages forbid every script, which is the point.
    const context = await browser().newContext({ bypassCSP: true });
    const page = await context.newPage();
    const reached: URL[] = [];
    await page.route("https://evil.example/**", async (route) => {
      reached.push(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: "text/plain", body: "evil" });
    });
    await signIn(page, base(), "operator");

    await page.goto(crafted.toString());
    await page.getByRole("heading", { name: "Allow this application to act as you?" }).waitFor();
    expect(reached).toEqual([]);
    await expect(page.getByText(NAME, { exact: true }).count()).resolves.toBe(1);
    expect(await page.title()).not.toBe("owned");
    expect(await page.locator(".host").first().textContent()).toBe("evil.example");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(/evil\.example/);
    expect(reached[0]!.searchParams.get("error")).toBe("access_denied");
    expect(reached[0]!.searchParams.get("code")).toBeNull();

    await page.goto(crafted.toString());
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(/evil\.example/);
    // Allowing sends an authorization code (opaque, URL-safe, long enough not to be guessed), no error,
    // and the client's own state back.
    expect(reached[1]!.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(reached[1]!.searchParams.get("error")).toBeNull();
    expect(reached[1]!.searchParams.get("state")).toBe(crafted.searchParams.get("state"));

    await page.goto(`${base()}/oidc/consents`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Withdraw" }).click();
    await page.getByText("Consent withdrawn.").waitFor();
    await page.goto(crafted.toString());
    await page.getByRole("heading", { name: "Allow this application to act as you?" }).waitFor();
    expect(reached).toHaveLength(2);

    await page.goto(`${base()}/oidc/session/end`);
    await page.getByRole("heading", { name: /Sign out of/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${base()}/oidc/consents`);
    expect(await page.getByRole("heading", { name: "Applications you allowed" }).count()).toBe(1);
    await page.goto(`${base()}/oidc/session/end`);
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.getByRole("heading", { name: "You are signed out" }).waitFor();
    const after = await page.goto(`${base()}/oidc/consents`);
    expect(after?.status()).toBe(401);
    await context.close();
  });
});
