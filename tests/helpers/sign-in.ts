// Signs a browser page in through the real flow: console -> sign-in page -> next-auth ->
// the development identity provider's login form -> callback -> back in the console.
import type { Page } from "playwright-core";

export const DEMO_PASSWORD = "demo";

export async function signIn(page: Page, baseUrl: string, login: string, target = "/console"): Promise<void> {
  // Lands on the sign-in page, the development provider, then back on `target`.
  await page.goto(`${baseUrl}${target}`);
  await page.waitForURL(/\/sign-in/);
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel("Login").fill(login);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === target);
}

/**
 * On the demo downstream provider's sign-in page (where "Continue" on the connect page leads):
 * signs in and waits for the connect flow's result page; returns its result ("connected", ...).
 */
export async function finishAtProvider(page: Page, login: string): Promise<string | null> {
  await page.getByLabel("Login").fill(login);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/connect\/done/);
  return page.getByTestId("connect-done").getAttribute("data-result");
}
