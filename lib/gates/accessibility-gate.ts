// Accessibility: the flow's own browser pages (the connect page a URL elicitation opens, and the
// provider's setup page the fallback links to), signed in as the test user in Chromium: no serious
// or critical axe-core violation, and the page's main action reachable and usable by keyboard
// alone. A flow that opens no page is not applicable; no browser fails as "could not run".
import type { Browser, Page } from "playwright-core";
import { declaredModes, variantLabel } from "./client-variants";
import { grantNeeds, type GateContext } from "./context";
import { withSession } from "./mcp-session";
import { cleanSlate, revokeTestRecords } from "./reset-connection";
import { pressByKeyboard, seriousViolations, signInAt } from "./browser";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

async function onPage(browser: Browser, body: (page: Page) => Promise<string>): Promise<string> {
  const context = await browser.newContext();
  try {
    return await body(await context.newPage());
  } finally {
    await context.close();
  }
}

async function axeClean(page: Page): Promise<void> {
  const v = await seriousViolations(page);
  expectThat(v.length === 0, `axe: ${v.map((x) => `${x.id} (${x.impact}, ${x.nodes} nodes)`).join("; ")}`);
}

export async function accessibilityGate(ctx: GateContext, actor: string, browser: Browser | string): Promise<GateResult> {
  const started = performance.now();
  const needs = grantNeeds(ctx.workflow);
  const pages = needs.length > 0 ? ["connect", "setup"] : ctx.flow.setupUrl ? ["setup"] : [];
  if (pages.length === 0)
    return finishGate("accessibility", started, [
      {
        name: "applicability",
        outcome: "not_applicable",
        detail: "the flow opens no page in a browser (its forms are rendered by the client)",
        ms: 0,
      },
    ]);
  if (typeof browser === "string")
    return finishGate("accessibility", started, [{ name: "launch Chromium", outcome: "could_not_run", detail: browser, ms: 0 }]);
  const user = ctx.tokens.user;
  if (!user)
    return finishGate("accessibility", started, [
      { name: "sign in", outcome: "could_not_run", detail: ctx.tokens.noUser ?? "could not run: no test user", ms: 0 },
    ]);
  const checks: CheckResult[] = [];
  const providerId = needs[0]?.providerId;
  const urlVariant = ctx.profile.variants.find((v) => declaredModes(v).url);
  if (pages.includes("connect") && urlVariant && providerId) {
    checks.push(
      await runCheck(
        "connect page: axe-core clean and Continue reachable by keyboard",
        async () => {
          const owner = { subject: user.subject, tenantId: user.tenant, providerId, flowId: ctx.flow.id };
          if (ctx.target.db) await cleanSlate(ctx.target.db, actor, owner);
          const url = await withSession(
            ctx.target.mcpUrl,
            await ctx.tokens.forAccount(user),
            urlVariant,
            () => ({ action: "accept" }),
            async (s) => (await s.call(ctx.workflow.name), s.received[0]?.url),
          );
          expectThat(url, "the flow sent no URL for the connect page");
          try {
            return await onPage(browser, async (page) => {
              await signInAt(page, ctx.target.baseUrl, user, new URL(url).pathname);
              await axeClean(page);
              // Keyboard only: Tab to Continue and press Enter; it must lead to the provider's sign-in.
              expectThat(
                await pressByKeyboard(
                  page,
                  `Continue to ${await page
                    .locator("h1")
                    .textContent()
                    .then((t) => (t ?? "").replace(/^Connect /, ""))}`,
                ),
                "the Continue button cannot be reached with Tab",
              );
              await page.waitForURL((u) => u.origin !== new URL(url).origin || !u.pathname.startsWith("/connect/"), { timeout: 15_000 });
              expectThat(!page.url().includes("/connect/problem"), "pressing Continue by keyboard ended on a problem page");
              return "no serious violations; Continue reached and pressed by keyboard";
            });
          } finally {
            // The link the check opened is ended, so it leaves nothing behind and starts no cool-down.
            if (ctx.target.db) await revokeTestRecords(ctx.target.db, actor, owner);
          }
        },
        variantLabel(urlVariant),
      ),
    );
  } else if (pages.includes("connect")) {
    checks.push({
      name: "connect page",
      outcome: "not_applicable",
      detail: "the client profile declares no URL mode: it never opens the connect page",
      ms: 0,
    });
  }
  if (pages.includes("setup")) {
    const path = ctx.flow.setupUrl ? new URL(ctx.flow.setupUrl, ctx.target.baseUrl).pathname : `/setup/${providerId}`;
    checks.push(
      await runCheck(`setup page ${path}: axe-core clean and its action reachable by keyboard`, async () =>
        onPage(browser, async (page) => {
          await signInAt(page, ctx.target.baseUrl, user, path);
          await axeClean(page);
          const focusable = await page.evaluate(() => document.querySelectorAll("main button, main a[href]").length);
          expectThat(focusable > 0, "the setup page has no button or link in its main content");
          let reached = false;
          for (let i = 0; i < 25 && !reached; i++) {
            await page.keyboard.press("Tab");
            reached = await page.evaluate(
              () => !!document.activeElement?.closest("main") && ["BUTTON", "A"].includes(document.activeElement.tagName),
            );
          }
          expectThat(reached, "no action in the main content can be reached with Tab");
          return "no serious violations; main action reachable by keyboard";
        }),
      ),
    );
  }
  return finishGate("accessibility", started, checks);
}
