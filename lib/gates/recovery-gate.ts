// Recovery. URL-mode flows, driven with the browser test user: another browser user opening the
// link is refused; the person finishes in the browser while the client never hears of it (the
// completion notification is lost) and the retried calls use the one grant; a replayed provider
// callback attaches nothing; the client's accept is lost on the way back and the client retries the
// call before the person opens the link, while they are at the provider and after they finished:
// every retry offers the same link, and it all ends with exactly one record and one grant.
// Approval flows: lib/gates/approval-recovery.ts. Form-only flows: not applicable.
import type { Browser } from "playwright-core";
import { declaredModes, variantLabel } from "./client-variants";
import { approvalRecovery } from "./approval-recovery";
import { approvalNeeds, grantNeeds, type GateContext } from "./context";
import { lostAcceptChecks } from "./lost-accept";
import { openSession } from "./mcp-session";
import { activeConnections, cleanSlate } from "./reset-connection";
import { signInAt } from "./browser";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

export async function recoveryGate(ctx: GateContext, actor: string, browser: Browser | string): Promise<GateResult> {
  const started = performance.now();
  const needs = grantNeeds(ctx.workflow);
  const na = (detail: string) => finishGate("recovery", started, [{ name: "applicability", outcome: "not_applicable", detail, ms: 0 }]);
  if (approvalNeeds(ctx.workflow).length > 0) return finishGate("recovery", started, await approvalRecovery(ctx));
  if (needs.length === 0) return na("form-only flow: no URL-mode or approval step whose completion could be lost");
  const variant =
    ctx.profile.variants.find((v) => declaredModes(v).url && v.revision === "2025-11-25") ??
    ctx.profile.variants.find((v) => declaredModes(v).url);
  if (!variant) return na("the client profile declares no URL mode: the flow only offers the setup link (checked by contract)");
  const cannot = (detail: string) => finishGate("recovery", started, [{ name: "browser steps", outcome: "could_not_run", detail, ms: 0 }]);
  if (typeof browser === "string") return cannot(browser);
  const user = ctx.tokens.user;
  const other = ctx.tokens.other;
  if (!user || !other) return cannot(ctx.tokens.noUser ?? "could not run: no second test user for the browser steps");
  const providerId = needs[0]!.providerId;
  if (!providerId) return na("the flow's URL need names no provider");
  const owner = { subject: user.subject, tenantId: user.tenant, providerId };
  const checks: CheckResult[] = [];
  const label = variantLabel(variant);
  if (ctx.target.db) await cleanSlate(ctx.target.db, actor, { ...owner, flowId: ctx.flow.id });
  const s = await openSession(ctx.target.mcpUrl, await ctx.tokens.forAccount(user), variant, () => ({ action: "accept" }));
  try {
    const first = await s.call(ctx.workflow.name);
    const url = s.received[0]?.url;
    if (first.structured.outcome !== "connect_pending" || !url) {
      checks.push({
        name: "start the URL flow",
        outcome: "could_not_run",
        detail: `no URL elicitation (outcome ${String(first.structured.outcome)}); the test user may already be connected and the store is not reachable`,
        variant: label,
        ms: 0,
      });
      return finishGate("recovery", started, checks);
    }
    const path = new URL(url).pathname;
    checks.push(
      await runCheck(
        "another browser user opening the link is refused",
        async () => {
          const context = await browser.newContext();
          try {
            const page = await context.newPage();
            await signInAt(page, ctx.target.baseUrl, other, path);
            const problem = await page
              .getByTestId("connect-problem")
              .getAttribute("data-problem", { timeout: 5_000 })
              .catch(() => null);
            expectThat(
              problem === "mismatch",
              `the connect page did not refuse another user (problem: ${problem ?? "none: the page offered to continue"})`,
            );
            return "refused as mismatch";
          } finally {
            await context.close();
          }
        },
        label,
      ),
    );
    let callback: string | undefined;
    checks.push(
      await runCheck(
        "completion notification lost: the user finishes in the browser",
        async () => {
          const context = await browser.newContext();
          try {
            const page = await context.newPage();
            page.on("request", (r) => {
              if (r.url().includes("/connect/callback")) callback = r.url();
            });
            await signInAt(page, ctx.target.baseUrl, user, path);
            await page.getByRole("button", { name: /^Continue to / }).click();
            await page.getByLabel("Login").fill(user.login);
            await page.getByLabel("Password").fill(user.password);
            await page.getByRole("button", { name: "Sign in" }).click();
            await page.waitForURL(/\/connect\/done/);
            const result = await page.getByTestId("connect-done").getAttribute("data-result");
            expectThat(result === "connected", `the connect flow ended ${result ?? "without a result"}`);
            if (callback) {
              // The provider's redirect, replayed: nothing more may be attached.
              await page.goto(callback);
              const again = await page
                .getByTestId("connect-done")
                .getAttribute("data-result", { timeout: 2_000 })
                .catch(() => null);
              expectThat(again !== "connected", "a replayed callback connected again");
            }
            return callback ? "connected; the replayed callback attached nothing" : "connected";
          } finally {
            await context.close();
          }
        },
        label,
      ),
    );
    for (const attempt of ["first", "second"]) {
      checks.push(
        await runCheck(
          `${attempt} retry without the notification uses the one grant`,
          async () => {
            const r = await s.call(ctx.workflow.name);
            expectThat(r.structured.outcome === "completed", `the retried call ended ${String(r.structured.outcome)}`);
            expectThat(s.received.length === 1, `the client was asked again (${s.received.length} elicitations)`);
            if (ctx.target.db) {
              const n = await activeConnections(ctx.target.db, owner);
              expectThat(n === 1, `${n} active grants after the retry, expected exactly one`);
              return "completed; exactly one grant in the store";
            }
            return "completed (store not reachable: grant count not checked)";
          },
          label,
        ),
      );
    }
  } finally {
    await s.close().catch(() => {});
  }
  checks.push(...(await lostAcceptChecks(ctx, actor, browser, { user, providerId })));
  return finishGate("recovery", started, checks);
}
