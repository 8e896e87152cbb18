// Release gates from the console, in Chromium against the production build: a releaser runs a
// flow's gates from its page, sees each gate's outcome and downloads the signed evidence; a viewer
// gets no control; the download refuses the signed-out, a malformed hash and another site.
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");
const FLOW = "generate_report:claude-code";

async function as(login: string, target: string): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return page;
}

describe("release gates in the console", () => {
  it("a releaser runs a flow's gates and downloads the signed evidence; a viewer has no control", async () => {
    const releaser = await as("releaser", "/console/flows");
    const item = releaser.locator(`li[data-flow="${FLOW}"]`);
    const run = item.getByRole("form", { name: `Run gates for ${FLOW}` });
    await run.getByRole("button", { name: "Run gates against this deployment" }).click();
    await expect
      .poll(async () => run.getByRole("status").textContent(), { timeout: 200_000, interval: 500 })
      .toMatch(/^all gates passed \(evidence [0-9a-f]{12}\)$/);

    await releaser.reload();
    const evidence = releaser.locator(`li[data-flow="${FLOW}"] [data-evidence]`);
    const hash = await evidence.getAttribute("data-evidence");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await evidence.locator("summary").click();
    expect(
      await evidence
        .locator("[data-gate]")
        .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-gate")}=${e.getAttribute("data-outcome")}`)),
    ).toEqual(["contract=passed", "privacy=passed", "phishing=passed", "accessibility=not_applicable", "recovery=not_applicable"]);
    // What promotion sees: every gate passed for the current fingerprint (not applicable counts as passed).
    expect(await item.getByRole("list", { name: "Gates" }).getByRole("listitem").allTextContents()).toEqual(
      expect.arrayContaining(["contract: passed", "privacy: passed", "phishing: passed", "recovery: passed", "accessibility: passed"]),
    );
    expect(await seriousA11yViolations(releaser)).toEqual([]);

    const res = await releaser.request.get(`${base()}/api/console/gates/evidence/${hash}`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as {
      sha256: string;
      signature: string;
      signedBytes: string;
      document: { flow: { id: string }; gates: unknown[] };
    };
    expect(createHash("sha256").update(body.signedBytes).digest("hex")).toBe(hash);
    expect(body.document.flow.id).toBe(FLOW);
    expect(body.document.gates).toHaveLength(5);

    // Another site cannot make the signed-in browser fetch it.
    expect(
      (
        await releaser.request.get(`${base()}/api/console/gates/evidence/${hash}`, { headers: { "sec-fetch-site": "cross-site" } })
      ).status(),
    ).toBeGreaterThanOrEqual(400);
    expect(
      (
        await releaser.request.get(`${base()}/api/console/gates/evidence/${"z".repeat(64)}`, {
          headers: { "sec-fetch-site": "same-origin" },
        })
      ).status(),
    ).toBe(400);
    expect(
      (
        await releaser.request.get(`${base()}/api/console/gates/evidence/${"0".repeat(64)}`, {
          headers: { "sec-fetch-site": "same-origin" },
        })
      ).status(),
    ).toBe(404);
    expect((await fetch(`${base()}/api/console/gates/evidence/${hash}`)).status).toBe(401);

    const viewer = await as("viewer", "/console/flows");
    expect(await viewer.getByRole("button", { name: "Run gates against this deployment" }).count()).toBe(0);
  });
});
