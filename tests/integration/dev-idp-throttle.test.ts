// Sign-in throttling at the bundled provider over real HTTP: wrong passwords per login and per
// client address are answered 401 up to the configured threshold, then 429 with Retry-After and a
// clear message, and while blocked even the right password does not sign in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInThrottleSettings } from "@/lib/auth/dev-idp/sign-in-throttle";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { authorizationUrl, formsOf, ProviderBrowser, type Landing } from "../helpers/provider-browser";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;

beforeAll(async () => {
  Object.assign(process.env, {
    DEV_IDP_SIGNIN_MAX_FAILURES: "3",
    DEV_IDP_SIGNIN_MAX_FAILURES_PER_ADDRESS: "5",
    DEV_IDP_SIGNIN_DELAY_STEP_MS: "1",
  });
  t = await createTestStore();
  app = await startAppServer(t.store.db);
});

afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

async function loginPage(): Promise<{ browser: ProviderBrowser; page: Landing }> {
  const browser = new ProviderBrowser();
  const page = await browser.go(
    authorizationUrl(`${app.baseUrl}/oidc`, { client_id: "console", redirect_uri: `${app.baseUrl}/api/auth/callback/oidc` }),
  );
  expect(page.status).toBe(200);
  return { browser, page };
}

async function attempt(browser: ProviderBrowser, page: Landing, login: string, password: string): Promise<Landing> {
  const form = formsOf(page.html, page.url).find((f) => "password" in f.fields)!;
  return browser.submit(form, { login, password }, `${app.baseUrl}/api/auth/callback`);
}

describe("sign-in throttling", () => {
  it("500 wrong passwords: 401 up to the per-login threshold, then 429 with Retry-After, right password included; then the per-address limit", async () => {
    const { browser, page } = await loginPage();
    const statuses: number[] = [];
    let last: Landing | undefined;
    for (let i = 0; i < 500; i++) {
      last = await attempt(browser, page, "alice", `wrong-${i}`);
      statuses.push(last.status);
      if (last.status === 429) {
        expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect(last!.html).toContain("Too many sign-in attempts");
    expect(last!.html).toMatch(/Try again in \d+ minutes?/);
    // Case and spaces do not make a new login.
    expect((await attempt(browser, page, "  ALICE ", "demo")).status).toBe(429);
    const right = await attempt(browser, page, "alice", "demo");
    expect(right.status).toBe(429);
    expect(right.url.startsWith(`${app.baseUrl}/api/auth/callback`)).toBe(false);

    // Per client address (this one, 127.0.0.1, has 3 counted failures; its limit is 5): spreading
    // wrong passwords over other logins is blocked too, and then even another account's right one.
    expect((await attempt(browser, page, "nobody-1", "x")).status).toBe(401);
    expect((await attempt(browser, page, "nobody-2", "x")).status).toBe(401);
    const blocked = await attempt(browser, page, "bob", "demo");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a bad setting is an error naming the variable, never silently 0", () => {
    expect(() => signInThrottleSettings({ DEV_IDP_SIGNIN_MAX_FAILURES: "5x" })).toThrow(
      /DEV_IDP_SIGNIN_MAX_FAILURES must be a whole number/,
    );
    expect(() => signInThrottleSettings({ DEV_IDP_SIGNIN_MAX_FAILURES: "0" })).toThrow(/DEV_IDP_SIGNIN_MAX_FAILURES/);
    expect(() => signInThrottleSettings({ DEV_IDP_SIGNIN_BLOCK_SECONDS: "-1" })).toThrow(/DEV_IDP_SIGNIN_BLOCK_SECONDS/);
    expect(signInThrottleSettings({})).toMatchObject({ maxFailuresPerLogin: 5, maxFailuresPerAddress: 20 });
  });
});
