// Drill: an app instance is killed (SIGKILL) in the middle of a connect flow. Two instances serve
// one public origin behind a load balancer; the identity provider and the downstream provider
// live outside them (a third process), as they would in production. The user has opened the
// connect page and gone on to the provider through instance A when A dies; the balancer fails
// over to B, the provider's callback lands on B, and B completes the grant from the state stored
// in the database. The client, whose session died with A, retries on B and gets the result: one
// record, one connection, one vault secret, an unbroken event path and an intact audit chain.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { startBalancer, type Balancer } from "../../bench/balancer";
import { freePort, prepareDeployment, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { tokenMinter } from "../../bench/load";
import { useBrowser } from "../helpers/browser";
import { connectClient } from "../helpers/mcp-client";
import { finishAtProvider, signIn } from "../helpers/sign-in";
import { postgresUrl } from "./drill-env";

let dep: Deployment;
let lb: Balancer;
const instances: Instance[] = [];
const browser = useBrowser();

describe.skipIf(!postgresUrl)("drill: instance killed mid-connect", () => {
  beforeAll(async () => {
    const publicPort = await freePort();
    const publicUrl = `http://localhost:${publicPort}`;
    dep = await prepareDeployment(publicUrl, { postgres: postgresUrl });
    // Each instance has its own data directory: what they share is configuration (dep.secrets).
    const [providers, a, b] = await Promise.all([0, 1, 2].map(() => startInstance(dep, { publicUrl, ownDataDir: true })));
    instances.push(providers!, a!, b!);
    lb = await startBalancer({
      port: publicPort,
      appPort: a!.port,
      fixed: [
        { prefix: "/oidc", port: providers!.port },
        { prefix: "/dev/downstream", port: providers!.port },
      ],
    });
  });
  afterAll(async () => {
    await lb?.close();
    for (const i of instances) await i.stop();
    await dep?.dispose();
  });

  it("lets the surviving instance complete the flow, with exactly one grant", async () => {
    const [providers, a, b] = instances as [Instance, Instance, Instance];
    expect(new Set(instances.map((i) => i.dataDir)).size).toBe(3);
    // Tokens are signed with the identity provider's keys, which live in its own data directory.
    const token = await tokenMinter(providers.dataDir, lb.url, dep.secrets)("user-alice-1001");
    const opts = { name: "drill-failover", capabilities: { elicitation: { url: {} } }, answer: () => ({ action: "accept" as const }) };
    const c1 = await connectClient(`${lb.url}/api/mcp`, token, opts);
    const first = await c1.call("list_repositories");
    expect(first.structured).toMatchObject({ outcome: "connect_pending" });
    const id = String(first.structured.elicitationId);

    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, lb.url, "alice", `/connect/${id}`);
    await page.getByRole("button", { name: "Continue to Demo Git" }).click();
    await page.waitForURL(/\/dev\/downstream\/interaction\//);

    // A dies between sending the user to the provider and the provider's callback.
    await a.stop("SIGKILL");
    expect(a.child.signalCode).toBe("SIGKILL");
    lb.switchTo(b.port);

    expect(await finishAtProvider(page, "alice")).toBe("connected");
    await context.close();

    // The client's session lived on A: it is gone, and B says so instead of answering for it.
    await expect(c1.call("list_repositories")).rejects.toThrow(/session not found|404/);
    await c1.close().catch(() => {});
    const c2 = await connectClient(`${lb.url}/api/mcp`, token, opts);
    expect((await c2.call("list_repositories")).structured).toMatchObject({
      outcome: "completed",
      repositories: ["acme/reports", "acme/infrastructure", "acme/website"],
    });
    expect(c2.received).toHaveLength(0); // resumed from the stored grant: not asked again
    await c2.close();

    const sql = postgres(dep.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      const records = await sql`select id, state from elicitation_records where subject = 'user-alice-1001' and mode = 'url'`;
      expect(records).toEqual([{ id, state: "completed" }]);
      const [{ n: connections }] =
        (await sql`select count(*)::int as n from downstream_connections where subject = 'user-alice-1001'`) as unknown as [{ n: number }];
      const [{ n: secrets }] = (await sql`select count(*)::int as n from vault_secrets`) as unknown as [{ n: number }];
      expect({ connections, secrets }).toEqual({ connections: 1, secrets: 1 });
      const events = await sql`select from_state, to_state from elicitation_events where record_id = ${id} order by id`;
      expect(events.map((e) => e.to_state)).toEqual(["created", "sent", "accepted", "opened", "completed"]);
    } finally {
      await sql.end();
    }
    const store = await dep.open();
    try {
      expect(await verifyStoredChain(store.db)).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
  });
});
