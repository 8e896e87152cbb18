import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, SHOTS, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();

describe("overview", () => {
  it("shows live counts read from the seeded store to a signed-in viewer", async () => {
    const seed = inject("seed");
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, inject("baseUrl"), "viewer");
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.replace(/,/g, "");
    // Other browser tests add records and sessions to the same server, so: at least the seed, and
    // the per-state table adds up to the total (both read from the store by the page).
    const total = Number(await text("count-records"));
    expect(total).toBeGreaterThanOrEqual(seed.records);
    expect(Number(await text("count-sessions"))).toBeGreaterThanOrEqual(seed.sessions);
    const perState = await page.locator('[data-testid^="state-"]').allTextContents();
    expect(perState.reduce((sum, v) => sum + Number(v.replace(/,/g, "")), 0)).toBe(total);
    expect(Number(await text("count-audit"))).toBeGreaterThanOrEqual(seed.auditEntries);
    expect(await page.getByTestId("audit-head").textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.screenshot({ path: path.join(SHOTS, "overview.png"), fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("has a dark theme that follows the system setting; every page stays accessible in it", async () => {
    const context = await browser().newContext({ colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(`${inject("baseUrl")}/sign-in`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "sign-in-dark.png") });
    // An admin sees every control, so every control's contrast is checked.
    await signIn(page, inject("baseUrl"), "admin");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgb(255, 255, 255)");
    await page.goto(`${inject("baseUrl")}/console/records`);
    const detail = await page.locator("a[href^='/console/records/']").first().getAttribute("href");
    const pages: Array<[string, string]> = [
      ["/console", "overview"],
      ["/console/records", "records"],
      [detail!, "record-detail"],
      ["/console/flows", "flows"],
      ["/console/approvals", "approvals"],
      ["/console/origins", "origins"],
      ["/console/clients", "clients"],
      ["/console/audit", "audit"],
    ];
    for (const [target, name] of pages) {
      await page.goto(`${inject("baseUrl")}${target}`);
      expect(await seriousA11yViolations(page), target).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `${name}-dark.png`), fullPage: true });
    }
    await context.close();
  });

  it("sends security headers", async () => {
    const res = await fetch(`${inject("baseUrl")}/sign-in`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});
