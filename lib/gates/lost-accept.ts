// Recovery of a URL-mode flow when the client's accept is lost on the way back to the server (the
// person said yes, the server never heard it) and the client retries the call: before the person
// opens the link, while they are at the provider, and after they finished. Every retry must offer
// the same link (never a second record), and the flow must end with exactly one record and one
// grant. Driven with the 2025-11-25 client, whose answer is a separate message that can be lost;
// in 2026-07-28 the answer travels inside the retried call itself, so there is nothing to lose.
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { elicitationRecords } from "@/db/schema";
import type { Db } from "@/db/client";
import { signInAt } from "./browser";
import { declaredModes, variantLabel } from "./client-variants";
import type { GateContext } from "./context";
import { openSession } from "./mcp-session";
import { activeConnections, cleanSlate } from "./reset-connection";
import type { BrowserAccount } from "./target";
import { expectThat, runCheck, type CheckResult } from "./types";

async function recordsOf(db: Db, subject: string, flowId: string): Promise<Array<{ id: string; state: string }>> {
  return db
    .select({ id: elicitationRecords.id, state: elicitationRecords.state })
    .from(elicitationRecords)
    .where(and(eq(elicitationRecords.subject, subject), eq(elicitationRecords.flowId, flowId)));
}

export async function lostAcceptChecks(
  ctx: GateContext,
  actor: string,
  browser: Browser,
  who: { user: BrowserAccount; providerId: string },
): Promise<CheckResult[]> {
  const variant = ctx.profile.variants.find((v) => declaredModes(v).url && v.revision === "2025-11-25");
  if (!variant)
    return [
      {
        name: "lost accept",
        outcome: "not_applicable",
        detail:
          "the client profile has no 2025-11-25 URL-mode variant: in 2026-07-28 the answer travels inside the retried call, so it cannot be lost apart from it",
        ms: 0,
      },
    ];
  const db = ctx.target.db;
  if (!db)
    return [
      {
        name: "lost accept",
        outcome: "could_not_run",
        detail: "could not run: 'exactly one record' is counted in the target's store (no DATABASE_URL given)",
        ms: 0,
      },
    ];
  const { user, providerId } = who;
  const label = variantLabel(variant);
  const owner = { subject: user.subject, tenantId: user.tenant, providerId };
  await cleanSlate(db, actor, { ...owner, flowId: ctx.flow.id });
  const before = new Set((await recordsOf(db, user.subject, ctx.flow.id)).map((r) => r.id));
  const fresh = async () => (await recordsOf(db, user.subject, ctx.flow.id)).filter((r) => !before.has(r.id));
  const s = await openSession(ctx.target.mcpUrl, await ctx.tokens.forAccount(user), variant, () => ({ action: "accept" }), {
    loseAnswers: 1,
  });
  const checks: CheckResult[] = [];
  let page: Page | undefined;
  const context = await browser.newContext();
  // The first call never hears back from its own accept: it waits (until the session ends).
  const lost = s.call(ctx.workflow.name, {}, 120_000).catch(() => undefined);
  try {
    for (let i = 0; i < 100 && s.received.length === 0; i++) await sleep(100);
    const url = s.received[0]?.url;
    if (!url)
      return [
        {
          name: "lost accept",
          outcome: "failed",
          detail: `the first call sent no URL elicitation (${s.received.length} received)`,
          variant: label,
          ms: 0,
        },
      ];
    const sameLink = () => s.received.every((e) => e.url === url);
    checks.push(
      await runCheck(
        "accept lost, retry before the person opens the link: the same link, no second record",
        async () => {
          const r = await s.call(ctx.workflow.name);
          expectThat(
            r.structured.outcome === "connect_pending",
            `the retried call ended ${String(r.structured.outcome)}, expected connect_pending`,
          );
          expectThat(sameLink(), `the retry was offered another link (${s.received.length} elicitations, not all the same link)`);
          const recs = await fresh();
          expectThat(recs.length === 1, `${recs.length} records for the one connect, expected exactly one`);
          return `the same link offered again (${s.received.length} elicitations); one record (${recs[0]!.state})`;
        },
        label,
      ),
    );
    checks.push(
      await runCheck(
        "retry while the person is at the provider: the same link, no second record",
        async () => {
          page = await context.newPage();
          await signInAt(page, ctx.target.baseUrl, user, new URL(url).pathname);
          await page.getByRole("button", { name: /^Continue to / }).click();
          await page.getByLabel("Login").waitFor();
          const r = await s.call(ctx.workflow.name);
          expectThat(
            r.structured.outcome === "connect_pending",
            `the retried call ended ${String(r.structured.outcome)}, expected connect_pending`,
          );
          expectThat(sameLink(), "the retry was offered another link while the person was at the provider");
          const recs = await fresh();
          expectThat(recs.length === 1, `${recs.length} records for the one connect, expected exactly one`);
          return `still pending (${recs[0]!.state}); one record`;
        },
        label,
      ),
    );
    checks.push(
      await runCheck(
        "the person finishes, the retry after completion uses the one grant: one record, one grant",
        async () => {
          expectThat(page, "the person never reached the provider");
          await page.getByLabel("Login").fill(user.login);
          await page.getByLabel("Password").fill(user.password);
          await page.getByRole("button", { name: "Sign in" }).click();
          await page.waitForURL(/\/connect\/done/);
          const result = await page.getByTestId("connect-done").getAttribute("data-result");
          expectThat(result === "connected", `the connect flow ended ${result ?? "without a result"}`);
          const r = await s.call(ctx.workflow.name);
          expectThat(r.structured.outcome === "completed", `the retried call ended ${String(r.structured.outcome)}, expected completed`);
          const recs = await fresh();
          expectThat(
            recs.length === 1 && recs[0]!.state === "completed",
            `records for the one connect: ${recs.map((x) => x.state).join(", ") || "none"}; expected exactly one, completed`,
          );
          const grants = await activeConnections(db, owner);
          expectThat(grants === 1, `${grants} active grants, expected exactly one`);
          return "completed; exactly one record (completed) and one grant";
        },
        label,
      ),
    );
  } finally {
    await context.close().catch(() => {});
    await s.close().catch(() => {});
    await lost;
  }
  return checks;
}
