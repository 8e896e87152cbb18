// Browser sessions end on the server: a session cookie captured before sign-out is refused
// afterwards by every route, and an admin can end another operator's sessions (audited). Over
// real HTTP against the production build, with Chromium signing in through the real provider.
import type { BrowserContext } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

async function signedIn(login: string, target = "/console"): Promise<{ context: BrowserContext; cookie: string }> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return { context, cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ") };
}

const killSwitchStatus = (cookie: string) => fetch(`${base()}/api/console/kill-switch`, { headers: { cookie } }).then((r) => r.status);
const engage = (cookie: string) =>
  fetch(`${base()}/api/console/kill-switch`, {
    method: "POST",
    headers: { cookie, origin: base(), "content-type": "application/json" },
    body: JSON.stringify({ scope: "mode:form", action: "engage", reason: "replayed cookie" }),
  });

describe("server-side sessions", () => {
  it("a cookie captured before sign-out no longer works after it", async () => {
    const { context, cookie } = await signedIn("operator");
    expect(await killSwitchStatus(cookie)).toBe(200);
    const page = context.pages()[0]!;
    await page.getByRole("button", { name: "Sign out" }).click();
    // The console session ends first (next-auth), then the issuer asks for confirmation.
    await page.waitForURL((u) => !u.pathname.startsWith("/console"));
    expect(await killSwitchStatus(cookie)).toBe(401);
    const replay = await engage(cookie);
    expect(replay.status).toBe(401);
    // Nothing was engaged by the replay.
    const admin = await signedIn("admin");
    const active = (await (await fetch(`${base()}/api/console/kill-switch`, { headers: { cookie: admin.cookie } })).json()) as {
      data: Array<{ scope: string }>;
    };
    expect(active.data.map((s) => s.scope)).not.toContain("mode:form");
    await admin.context.close();
    await context.close();
  });

  it("an admin ends another operator's sessions on the server, audited; the operator's cookie stops working", async () => {
    const viewer = await signedIn("viewer");
    expect(await killSwitchStatus(viewer.cookie)).toBe(200);
    const admin = await signedIn("admin", "/console/operators");
    const page = admin.context.pages()[0]!;
    await page.goto(`${base()}/console/operators`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    const row = page.locator('[data-operator="op-viewer-0006"]');
    expect(Number(await row.getByTestId("live-sessions").textContent())).toBeGreaterThanOrEqual(1);
    await row.getByPlaceholder("Reason").fill("laptop reported stolen");
    await row.getByRole("button", { name: "End sessions" }).click();
    await expect.poll(async () => row.getByTestId("end-sessions-result").textContent()).toMatch(/^Ended [1-9]\d* session\(s\)\.$/);
    expect(await killSwitchStatus(viewer.cookie)).toBe(401);
    // Viewing the console again sends the viewer to sign-in.
    const vpage = viewer.context.pages()[0]!;
    await vpage.goto(`${base()}/console`);
    await vpage.waitForURL(/\/sign-in/);
    const audit = (await (
      await fetch(`${base()}/api/console/audit?action=operator.sessions_ended&limit=5`, { headers: { cookie: admin.cookie } })
    ).json()) as { data: Array<{ actorId: string; targetId: string; detail: Record<string, unknown> }> };
    expect(audit.data[0]).toMatchObject({
      actorId: "op-admin-0001",
      targetId: "op-viewer-0006",
      detail: { reason: "laptop reported stolen" },
    });
    expect(Number(audit.data[0]!.detail.sessions)).toBeGreaterThanOrEqual(1);
    await viewer.context.close();
    await admin.context.close();
  });

  it("only admins may end sessions: an operator's attempt is refused and audited, and the target keeps working", async () => {
    const viewer = await signedIn("viewer");
    const op = await signedIn("operator", "/console");
    const page = op.context.pages()[0]!;
    await page.goto(`${base()}/console/operators`);
    expect(await page.getByTestId("forbidden").textContent()).toMatch(/operators\.manage/);
    expect(await killSwitchStatus(viewer.cookie)).toBe(200);
    await viewer.context.close();
    await op.context.close();
  });
});
