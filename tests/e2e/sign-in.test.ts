// Acceptance (identity and access): sign in through the development provider as an operator and
// land in the console; a viewer's attempt at an operator action is refused on the server, tried by
// calling the route and the action directly, and audited; unauthenticated requests are refused.
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, SHOTS, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

describe("console sign-in", () => {
  it("redirects an anonymous visitor to sign-in and refuses console APIs with 401", async () => {
    const page = await browser().newPage();
    await page.goto(`${base()}/console`);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "sign-in.png") });
    await page.close();
    const res = await fetch(`${base()}/api/console/kill-switch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect((await fetch(`${base()}/api/console/kill-switch`)).status).toBe(401);
  });

  it("signs an operator in, shows who and which role, and uses secure session cookies", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, base(), "operator");
    await expect(page.getByTestId("whoami").textContent()).resolves.toContain("Oscar Operator");
    expect(await page.getByTestId("whoami-roles").textContent()).toBe("operator");
    const session = (await context.cookies()).find((c) => c.name.includes("next-auth.session-token"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    // Bounded lifetime: the cookie expires within the configured session age (8 h by default).
    expect(session!.expires * 1000 - Date.now()).toBeLessThanOrEqual(8 * 3600 * 1000 + 60_000);
    await context.close();
  });

  it("lets an operator engage the kill switch; releasing needs a second operator", async () => {
    const ctxA = await browser().newContext();
    const a = await ctxA.newPage();
    await signIn(a, base(), "operator");
    // A scope that names nothing (a typo) is refused, not shown as engaged.
    const typo = await a.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "workflow:generate_reprot", action: "engage", reason: "e2e drill" },
    });
    expect(typo.status()).toBe(409);
    expect(await typo.json()).toMatchObject({ ok: false, error: expect.stringMatching(/no workflow is called "generate_reprot"/) });
    const engage = await a.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "mode:form", action: "engage", reason: "e2e drill" },
    });
    expect(engage.status()).toBe(200);
    await a.reload();
    await expect(a.getByTestId("kill-switch-banner").textContent()).resolves.toContain("mode:form");
    const ask = await a.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "mode:form", action: "release", reason: "drill over" },
    });
    expect(await ask.json()).toMatchObject({ ok: true, data: { state: "release_requested" } });
    const again = await a.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "mode:form", action: "release", reason: "drill over" },
    });
    expect(again.status()).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, error: expect.stringMatching(/second person/) });

    const ctxB = await browser().newContext();
    const b = await ctxB.newPage();
    await signIn(b, base(), "admin");
    const confirm = await b.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "mode:form", action: "release", reason: "drill over" },
    });
    expect(await confirm.json()).toMatchObject({ ok: true, data: { state: "released" } });
    await ctxA.close();
    await ctxB.close();
  });

  it("refuses a viewer's kill-switch attempt on the server, via the route and via the form, and audits it", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, base(), "viewer");
    const direct = await page.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "global", action: "engage", reason: "viewer tries" },
    });
    expect(direct.status()).toBe(403);
    expect(await direct.json()).toMatchObject({ ok: false, error: expect.stringMatching(/forbidden/) });
    // The form is shown to a viewer too (with a note); submitting it runs the server action,
    // which refuses on the server.
    await page.getByLabel("Reason (required)").fill("viewer tries the form");
    await page.getByRole("button", { name: "Engage kill switch" }).click();
    // The confirmation step says what would happen before anything is sent.
    expect(await page.getByTestId("kill-switch-result").textContent()).toBe("");
    expect(await page.getByTestId("kill-switch-confirm").textContent()).toMatch(/revoke \d+ unfinished URL-mode handle/);
    await page.getByRole("button", { name: "Confirm: engage kill switch" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="kill-switch-result"]')?.textContent?.startsWith("Refused"));
    expect(await page.getByTestId("kill-switch-result").textContent()).toMatch(/^Refused: forbidden/);
    await page.reload();
    expect(await page.getByTestId("kill-switch-banner").count()).toBe(0);
    await context.close();

    // Both denials are in the audit log, read back by an auditor.
    const auditor = await browser().newContext();
    const ap = await auditor.newPage();
    await signIn(ap, base(), "auditor");
    const res = await ap.request.get(`${base()}/api/console/audit?action=access.denied&actor=op-viewer-0006`);
    const denied = ((await res.json()).data as Array<{ detail: { permission: string }; targetId: string }>).filter(
      (e) => e.detail.permission === "kill_switch.change",
    );
    expect(denied.map((e) => e.targetId).sort()).toEqual(["global", "global"]);
    await auditor.close();
  });

  it("shows an end user that the console is not for them, and audits the attempt", async () => {
    // A switch in force (on a flow no test uses, expiring by itself): its operator's reason is for
    // operators, never shown to an end user who merely signed in.
    const opCtx = await browser().newContext();
    const op = await opCtx.newPage();
    await signIn(op, base(), "operator");
    const engaged = await op.request.post(`${base()}/api/console/kill-switch`, {
      data: { scope: "flow:generate_report:banner-check", action: "engage", reason: "operators-only reason 7Q2", expiresInMinutes: 1 },
    });
    expect(engaged.status()).toBe(200);
    await op.reload();
    await expect(op.getByTestId("kill-switch-banner").textContent()).resolves.toContain("operators-only reason 7Q2");
    await opCtx.close();

    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, base(), "alice");
    expect(await page.getByTestId("forbidden").textContent()).toMatch(/cannot open this page/);
    expect(await page.getByTestId("kill-switch-banner").count()).toBe(0);
    expect(await page.content()).not.toContain("operators-only reason 7Q2");
    // Leave nothing engaged for the files that run after this one: release it (two people).
    for (const who of ["operator", "admin"] as const) {
      const ctx = await browser().newContext();
      const p = await ctx.newPage();
      await signIn(p, base(), who);
      const released = await p.request.post(`${base()}/api/console/kill-switch`, {
        data: { scope: "flow:generate_report:banner-check", action: "release", reason: "banner check over" },
      });
      expect(released.status()).toBe(200);
      await ctx.close();
    }
    expect((await page.request.get(`${base()}/api/console/audit`)).status()).toBe(403);
    await context.close();
    const auditor = await browser().newContext();
    const ap = await auditor.newPage();
    await signIn(ap, base(), "auditor");
    const res = await ap.request.get(`${base()}/api/console/audit?action=access.denied&actor=user-alice-1001`);
    const reasons = ((await res.json()).data as Array<{ detail: { reason: string } }>).map((e) => e.detail.reason);
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect(new Set(reasons)).toEqual(new Set(["not an active operator"]));
    await auditor.close();
  });
});
