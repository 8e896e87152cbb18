// Debian's Chromium driven by playwright-core (never a downloaded browser), and axe-core injected
// into the page. A missing browser is a result, not a crash: the gates that need one report
// "could not run: no browser" and fail.
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import type { BrowserAccount } from "./target";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumPathFrom(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH?.trim() || "/usr/bin/chromium";
}

export async function launch(path: string): Promise<Browser | string> {
  if (!fs.existsSync(path)) return `could not run: no browser (Chromium not found at ${path}; install it or set CHROMIUM_PATH)`;
  try {
    return await chromium.launch({ executablePath: path, headless: true, args: FLAGS });
  } catch (err) {
    return `could not run: no browser (Chromium at ${path} did not start: ${(err as Error).message.split("\n")[0]})`;
  }
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
}

/** Serious and critical axe-core violations on the current page. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: axeSource });
  const all = await page.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: unknown[] }> }> } }
    ).axe.run();
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return all.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Signs the page in at the target (console sign-in -> identity provider -> back on `path`). */
export async function signInAt(page: Page, baseUrl: string, account: BrowserAccount, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL(/\/sign-in/);
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel("Login").fill(account.login);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === path);
}

/** Keyboard only: Tab until `name` has focus (bounded), then Enter. False when it never got focus. */
export async function pressByKeyboard(page: Page, name: string): Promise<boolean> {
  const button = page.getByRole("button", { name });
  for (let i = 0; i < 25; i++) {
    if (await button.evaluate((el) => el === document.activeElement).catch(() => false)) {
      await page.keyboard.press("Enter");
      return true;
    }
    await page.keyboard.press("Tab");
  }
  return false;
}
