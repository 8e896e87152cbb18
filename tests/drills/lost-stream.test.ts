// Drill: the client's stream is dropped while a connect flow is open, so the completion
// notification can never reach it. The client comes back on a new session and retries twice:
// before the user finished (offered the same link again, no second record) and after (resumed
// from the stored grant, not asked again). Exactly one record and one grant; runs on either store.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { tokenMinter } from "../../bench/load";
import { useBrowser } from "../helpers/browser";
import { connectClient } from "../helpers/mcp-client";
import { finishAtProvider, signIn } from "../helpers/sign-in";
import { useInstance } from "./drill-env";

const browser = useBrowser();

describe("drill: completion notification lost with the client's stream", () => {
  const deployment = useInstance();

  it("resumes on retry with no second record and no second grant", async () => {
    const { dep, app } = deployment();
    const token = await tokenMinter(dep.dataDir, app.baseUrl)("user-bob-1002");
    const opts = { name: "drill-lost-stream", capabilities: { elicitation: { url: {} } }, answer: () => ({ action: "accept" as const }) };
    const c1 = await connectClient(`${app.baseUrl}/api/mcp`, token, opts);
    const first = await c1.call("list_repositories");
    expect(first.structured).toMatchObject({ outcome: "connect_pending", reused: false });
    const id = String(first.structured.elicitationId);
    await c1.transport.close(); // the stream drops; the session's notifications have nowhere to go

    const c2 = await connectClient(`${app.baseUrl}/api/mcp`, token, opts);
    expect((await c2.call("list_repositories")).structured).toMatchObject({ outcome: "connect_pending", elicitationId: id, reused: true });
    await c2.transport.close();

    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, app.baseUrl, "bob", `/connect/${id}`);
    await page.getByRole("button", { name: "Continue to Demo Git" }).click();
    await page.waitForURL(/\/dev\/downstream\/interaction\//);
    expect(await finishAtProvider(page, "bob")).toBe("connected");
    await context.close();

    const c3 = await connectClient(`${app.baseUrl}/api/mcp`, token, opts);
    expect((await c3.call("list_repositories")).structured).toMatchObject({ outcome: "completed" });
    expect(c3.received).toHaveLength(0);
    await c3.close();
    expect(app.child.exitCode).toBeNull();

    await app.stop();
    const store = await dep.open();
    try {
      const records = rowsOf<{ id: string; state: string }>(
        await store.db.execute(sql`select id, state from elicitation_records where subject = 'user-bob-1002' and mode = 'url'`),
      );
      expect(records).toEqual([{ id, state: "completed" }]);
      const [counts] = rowsOf<{ connections: number; secrets: number }>(
        await store.db.execute(
          sql`select (select count(*) from downstream_connections where subject = 'user-bob-1002')::int as connections, (select count(*) from vault_secrets)::int as secrets`,
        ),
      );
      expect(counts).toEqual({ connections: 1, secrets: 1 });
      expect(await verifyStoredChain(store.db)).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
  });
});
