import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, seriousA11yViolations } from "../helpers/browser";

const shots = path.resolve(import.meta.dirname, "../artifacts/screenshots");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

describe("home page", () => {
  it("shows live counts read from the seeded store", async () => {
    const seed = inject("seed");
    const page = await browser.newPage();
    const res = await page.goto(inject("baseUrl"));
    expect(res?.status()).toBe(200);
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.replace(/,/g, "");
    expect(await text("count-records")).toBe(String(seed.records));
    expect(await text("count-sessions")).toBe(String(seed.sessions));
    expect(await text("count-audit")).toBe(String(seed.auditEntries));
    expect(await page.getByTestId("audit-head").textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.screenshot({ path: path.join(shots, "home.png"), fullPage: true });
    await page.close();
  });

  it("has no serious or critical accessibility violations", async () => {
    const page = await browser.newPage();
    await page.goto(inject("baseUrl"));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it("sends security headers", async () => {
    const res = await fetch(inject("baseUrl"));
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});
