// Client profiles and flow stages in the console, in Chromium: an admin maps an OAuth client id to
// a profile and unmaps it (a viewer sees the mappings and no control); a releaser sets a flow's
// canary share; flows show observed client names as observations. Both pages pass axe-core.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

async function as(login: string, target: string): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return page;
}

describe("client profiles and flow stages in the console", () => {
  it("an admin maps an OAuth client id to a profile and unmaps it; a viewer only sees the mapping", async () => {
    const admin = await as("admin", "/console/clients");
    expect(await seriousA11yViolations(admin)).toEqual([]);
    const table = admin.getByTestId("client-profiles-table");
    expect(await table.getByRole("cell", { name: "claude-code", exact: true }).count()).toBeGreaterThan(0);
    const form = admin.getByRole("form", { name: "Map a client id to a profile" });
    await form.getByLabel("OAuth client id").fill("e2e-dcr-client-1");
    await form.getByLabel("Profile id").fill("e2e-profile");
    await form.getByLabel("Display name").fill("E2E client");
    await form.getByRole("button", { name: "Save mapping" }).click();
    await expect.poll(async () => form.getByRole("status").textContent()).toBe("e2e-dcr-client-1 now belongs to e2e-profile.");
    // The shared profile of every unmapped client cannot be assigned, whatever the browser allows.
    await form.getByLabel("OAuth client id").fill("e2e-dcr-client-2");
    await form.getByLabel("Profile id").fill("unregistered");
    await form.getByRole("button", { name: "Save mapping" }).click();
    await expect
      .poll(async () => form.getByRole("status").textContent())
      .toMatch(/^Refused: invalid input: "unregistered" is where unmapped clients go/);

    const viewer = await as("viewer", "/console/clients");
    await expect.poll(() => viewer.getByRole("cell", { name: "e2e-dcr-client-1", exact: true }).count()).toBe(1);
    expect(await viewer.getByRole("form", { name: "Map a client id to a profile" }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "Unmap" }).count()).toBe(0);

    await admin.reload();
    const unmap = admin.getByRole("form", { name: "Unmap e2e-dcr-client-1" });
    await unmap.getByRole("button", { name: "Unmap" }).click();
    await expect
      .poll(async () => {
        await admin.reload();
        return admin.getByRole("row").filter({ hasText: "e2e-dcr-client-1" }).textContent();
      })
      .toMatch(/unmapped/);
  });

  it("a releaser sets a flow's canary share; a viewer has no control", async () => {
    const flowId = "generate_report:jetbrains";
    const releaser = await as("releaser", "/console/flows");
    expect(await seriousA11yViolations(releaser)).toEqual([]);
    expect(await releaser.getByRole("form", { name: "Roll back generate_report for every client" }).count()).toBe(1);
    const controls = releaser.getByRole("form", { name: `Release controls for ${flowId}` });
    await controls.getByLabel("Reason").fill("small canary first");
    await controls.getByLabel("Canary share (%)").fill("15");
    await controls.getByRole("button", { name: "Set canary" }).click();
    await expect.poll(async () => controls.getByRole("status").textContent()).toBe("canary at 15%");
    await releaser.reload();
    await expect.poll(async () => releaser.locator(`[data-flow="${flowId}"]`).textContent()).toMatch(/canary 15%/);

    const viewer = await as("viewer", "/console/flows");
    expect(await viewer.getByRole("form", { name: `Release controls for ${flowId}` }).count()).toBe(0);
    expect(await viewer.getByRole("form", { name: "Roll back generate_report for every client" }).count()).toBe(0);
    // The seeded history's client names are shown as observations of the flow they ran in.
    await viewer.locator('[data-flow="generate_report:visual-studio-code"] summary').click();
    expect(await viewer.getByRole("list", { name: "Observed clients of generate_report:visual-studio-code" }).textContent()).toMatch(
      /Visual Studio Code/,
    );
  });
});
