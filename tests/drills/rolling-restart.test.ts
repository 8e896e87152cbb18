// Drill: a rolling restart of two instances under load loses no record and leaves none in flight.
// A and B serve one public origin behind a balancer that routes by Mcp-Session-Id and takes an
// instance out of rotation when its /readyz fails (tests/helpers/session-balancer.ts, as the
// ingress in docs/DEPLOYMENT.md does). Clients keep calling a form workflow while A2 is started and A
// sent SIGTERM, then B2 and B; a call started on each old instance is answered only after
// its SIGTERM, inside the grace period. Afterwards every call a client saw complete is one completed
// record, every record is finished, and each old instance exited cleanly (code 0).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { freePort, prepareDeployment, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { tokenMinter } from "../../bench/load";
import { connectClient } from "../helpers/mcp-client";
import { startSessionBalancer, type SessionBalancer } from "../helpers/session-balancer";
import { postgresUrl } from "./drill-env";

const WORKERS = 3;
const FORM = { environment: "staging", format: "pdf" };

let dep: Deployment;
let lb: SessionBalancer;
let publicUrl: string;
const instances: Instance[] = [];

async function start(): Promise<Instance> {
  const i = await startInstance(dep, { publicUrl, env: { DRAIN_GRACE_SECONDS: "60" } });
  instances.push(i);
  lb.add(i.port);
  await expect.poll(() => lb.ready().includes(i.port), { timeout: 30_000 }).toBe(true);
  return i;
}

describe.skipIf(!postgresUrl)("drill: rolling restart of two instances", () => {
  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    dep = await prepareDeployment(publicUrl, { postgres: postgresUrl });
    lb = await startSessionBalancer(port);
  });
  afterAll(async () => {
    await lb?.close();
    for (const i of instances) await i.stop();
    await dep?.dispose();
  });

  it("loses no record and leaves none in flight", async () => {
    const [a, b] = [await start(), await start()];
    const mint = tokenMinter(dep.dataDir, publicUrl, dep.secrets);
    let stop = false;
    const completed: string[] = [];
    const retried: string[] = [];

    // Each worker: a session, calls until told to stop; a refused or vanished session is retried
    // on a new one (that is what "retryable" promises a client).
    const worker = async (n: number) => {
      const token = await mint(`user-roll-${n}`);
      while (!stop) {
        try {
          const c = await connectClient(`${lb.url}/api/mcp`, token, {
            name: "drill-roll",
            capabilities: { elicitation: { form: {} } },
            answer: async () => (await new Promise((r) => setTimeout(r, 30)), { action: "accept", content: FORM }),
          });
          try {
            for (let k = 0; k < 5 && !stop; k++) {
              const r = await c.call("generate_report");
              expect(r.structured).toMatchObject({ outcome: "completed" });
              completed.push(String(r.structured.elicitationId ?? ""));
            }
          } finally {
            await c.close().catch(() => {});
          }
        } catch (err) {
          retried.push(err instanceof Error ? err.message.slice(0, 120) : String(err));
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };

    // A call whose person answers only after the instance holding it got SIGTERM.
    const heldCall = async (target: Instance, subject: string) => {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const c = await connectClient(`${target.baseUrl}/api/mcp`, await mint(subject), {
        name: "drill-roll-held",
        capabilities: { elicitation: { form: {} } },
        answer: async () => (await released, { action: "accept", content: FORM }),
      });
      const call = c.call("generate_report");
      await expect.poll(() => c.received.length, { timeout: 30_000 }).toBe(1);
      return { release, done: call.finally(() => c.close().catch(() => {})) };
    };

    // In the order of a Kubernetes rollout with maxSurge 1, maxUnavailable 0: the replacement
    // first, then SIGTERM to the old instance, which leaves the rotation and drains.
    const restart = async (old: Instance, subject: string) => {
      const replacement = await start();
      const held = await heldCall(old, subject);
      const exited = new Promise<number | null>((r) =>
        old.child.exitCode !== null ? r(old.child.exitCode) : old.child.once("exit", (code) => r(code)),
      );
      old.child.kill("SIGTERM");
      await expect.poll(() => lb.ready().includes(old.port), { timeout: 10_000 }).toBe(false);
      held.release();
      expect((await held.done).structured).toMatchObject({ outcome: "completed" });
      expect(await exited).toBe(0);
      return replacement;
    };

    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    await expect.poll(() => completed.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    await restart(a, "user-held-a");
    const before = completed.length;
    await expect.poll(() => completed.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 10);
    await restart(b, "user-held-b");
    const after = completed.length;
    await expect.poll(() => completed.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(after + 10);
    stop = true;
    await load;

    const sql = postgres(dep.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`select subject, state from elicitation_records`;
      const byState = (s: string) => rows.filter((r) => r.state === s);
      // Nothing left in flight, nothing failed: every record is a completed call.
      expect(rows.filter((r) => r.state !== "completed")).toEqual([]);
      // Every call a worker saw complete is a record, and every record a call someone saw complete.
      expect(byState("completed").filter((r) => String(r.subject).startsWith("user-roll-"))).toHaveLength(completed.length);
      expect(byState("completed").filter((r) => String(r.subject).startsWith("user-held-"))).toHaveLength(2);
    } finally {
      await sql.end();
    }
    const store = await dep.open();
    try {
      expect(await verifyStoredChain(store.db)).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
    // What clients saw instead is retryable: a refused new session (503 while draining), or a session
    // whose instance has gone (the balancer's 502, a 404, a closed connection); never lost work.
    for (const m of retried)
      expect(m).toMatch(
        /503|shutting down|upstream unreachable|session not found|404|fetch failed|ECONNRE|socket|terminated|other side closed/i,
      );
    expect(retried.length).toBeLessThan(completed.length);
  });
});
