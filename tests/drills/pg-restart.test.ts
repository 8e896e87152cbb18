// Drill: PostgreSQL restarted in the middle of a load run. Calls made while it is down fail fast
// with a clear error, the service is back within seconds of the database, the instance survives,
// and afterwards nothing is half-written: every record is in a final state with an unbroken event
// path (records whose outcome was lost are closed by the reconciler, not left dangling), every
// outcome a client saw matches the store, and the audit chain verifies.
import { describe, expect, it } from "vitest";
import { reconcileStaleRecords } from "@/lib/elicitation/reconcile";
import { tokenMinter } from "../../bench/load";
import { runLoad, type CallOutcome } from "../../bench/load-clients";
import { reconcileLoad } from "../../bench/reconcile-load";
import { postgresUrl, restartPostgres, useInstance } from "./drill-env";

describe.skipIf(!postgresUrl)("drill: PostgreSQL restarted mid-load", () => {
  const deployment = useInstance({ ELICITATION_COOLDOWN_SECONDS: "0.2" });

  it("fails fast and clearly while down, recovers within seconds, and loses or half-writes nothing", async () => {
    const { dep, app } = deployment();
    const runId = `drill-pg-${Date.now().toString(36)}`;
    const load = runLoad({
      mcpUrl: `${app.baseUrl}/api/mcp`,
      token: tokenMinter(dep.dataDir, app.baseUrl),
      clients: 6,
      durationMs: 22_000,
      runId,
    });
    await new Promise((r) => setTimeout(r, 6_000));
    const down = Date.now();
    await restartPostgres();
    const up = Date.now();
    const { calls } = await load;

    expect(app.child.exitCode).toBeNull(); // the instance rode it out
    const before = calls.filter((c) => c.startedAt < down && c.outcome === "completed");
    expect(before.length).toBeGreaterThan(10);
    const failed = calls.filter((c) => c.outcome === "store_unavailable" || c.outcome === "transport_error");
    expect(failed.length).toBeGreaterThan(0); // the restart was felt...
    process.stdout.write(
      `pg-restart: restart took ${up - down} ms; ${failed.length} calls refused meanwhile, slowest in ${Math.round(Math.max(...failed.map((c) => c.ms)))} ms\n`,
    );
    for (const c of failed) {
      expect(c.startedAt).toBeGreaterThanOrEqual(down - 6_000); // ...only around the restart,
      expect(c.ms).toBeLessThan(5_000); // fast: the connect timeout, never a client timeout,
      if (c.outcome === "transport_error") expect(c.error).toMatch(/service unavailable: the database is unreachable/); // and clear
    }
    const recovered = calls.filter((c) => c.startedAt >= up && c.outcome === "completed").sort((a, b) => a.startedAt - b.startedAt)[0];
    expect(recovered).toBeDefined();
    expect(recovered!.startedAt + recovered!.ms - up).toBeLessThan(10_000);

    await app.stop();
    const store = await dep.open();
    try {
      // What the instance's own reconciler does once the form timeout has passed, done now.
      await reconcileStaleRecords(store.db, { formTimeoutMs: 0 }, new Date(Date.now() + 120_000));
      const rec = await reconcileLoad(store.db, runId, calls as CallOutcome[], { allowUnclaimed: true, allowTransportErrors: true });
      expect(rec.problems).toEqual([]);
      expect(rec.records).toBeGreaterThan(before.length);
    } finally {
      await store.close();
    }
  });
});
