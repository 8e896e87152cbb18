// The pause control in the console, in Chromium: the form on the flows page comes from the
// control's declaration (lib/policy/flow-pause.ts) through the one generic server action; a
// releaser pauses a flow and sees it stopped until its end on the row, in the banner and in the
// kill-switch status API; a viewer and an operator get no form. The switch is released (two
// people, through the kill switch's route, made from its declaration) so later files start clean.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");
const FLOW = "list_repositories:jetbrains";

async function as(login: string, target: string): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return page;
}

/** A same-origin JSON POST from the signed-in page, the way the console's own script would send it. */
const release = (page: Page, scope: string) =>
  page.evaluate(async (s) => {
    const res = await fetch("/api/console/kill-switch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scope: s, action: "release", reason: "e2e pause over" }),
    });
    return { status: res.status, body: (await res.json()) as { ok: boolean; data?: { state: string } } };
  }, scope);

describe("pause a flow in the console", () => {
  it("a releaser pauses a flow for N minutes; viewers and operators have no form", async () => {
    const releaser = await as("releaser", "/console/flows");
    const form = releaser.getByRole("form", { name: `Pause: ${FLOW}` });
    expect(await form.count()).toBe(1);
    await form.getByLabel("Minutes").fill("30");
    await form.getByLabel("Reason").fill("e2e maintenance");
    await form.getByRole("button", { name: "Pause" }).click();
    await expect
      .poll(async () => form.getByRole("status").textContent())
      .toMatch(/^paused until \d{4}-\d\d-\d\d \d\d:\d\d UTC; \d+ unfinished handle\(s\) revoked$/);
    const operator = await as("operator", "/console/flows");
    try {
      await releaser.reload();
      const row = releaser.locator(`[data-flow="${FLOW}"]`);
      expect(await row.getByTestId("flow-stopped").textContent()).toMatch(/^stopped until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      expect(await releaser.getByTestId("kill-switch-banner").textContent()).toContain(`flow:${FLOW} (paused for 30 min: e2e maintenance)`);
      const status = (await (await releaser.request.get(`${base()}/api/console/kill-switch`)).json()) as {
        data: Array<{ scope: string; expiresAt: string | null }>;
      };
      expect(status.data.find((k) => k.scope === `flow:${FLOW}`)?.expiresAt).toEqual(expect.any(String));

      const viewer = await as("viewer", "/console/flows");
      expect(await viewer.locator(`[data-flow="${FLOW}"]`).getByTestId("flow-stopped").count()).toBe(1);
      expect(await viewer.getByRole("form", { name: `Pause: ${FLOW}` }).count()).toBe(0);
      expect(await operator.getByRole("form", { name: `Pause: ${FLOW}` }).count()).toBe(0);
    } finally {
      expect(await release(operator, `flow:${FLOW}`)).toEqual({
        status: 200,
        body: { ok: true, data: { state: "release_requested", scope: `flow:${FLOW}` } },
      });
      const admin = await as("admin", "/console");
      expect(await release(admin, `flow:${FLOW}`)).toEqual({
        status: 200,
        body: { ok: true, data: { state: "released", scope: `flow:${FLOW}` } },
      });
    }
  });
});
