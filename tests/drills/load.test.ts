// The load run, short: concurrent SDK clients with mixed manifests and answers against the
// production build, then exact reconciliation of the store against what the clients saw.
// `npm run load` is the long version with a report.
import { describe, expect, it } from "vitest";
import { tokenMinter } from "../../bench/load";
import { runLoad } from "../../bench/load-clients";
import { reconcileLoad } from "../../bench/reconcile-load";
import { useInstance } from "./drill-env";

describe("load run", () => {
  const deployment = useInstance({ ELICITATION_COOLDOWN_SECONDS: "0.2" });

  it("reconciles exactly: one record per elicitation, no duplicates, no orphans, chain intact", async () => {
    const { dep, app } = deployment();
    const runId = `load-${Date.now().toString(36)}`;
    const { calls } = await runLoad({
      mcpUrl: `${app.baseUrl}/api/mcp`,
      token: tokenMinter(dep.dataDir, app.baseUrl),
      clients: 10,
      durationMs: 8_000,
      runId,
    });
    await app.stop();
    const store = await dep.open();
    try {
      const rec = await reconcileLoad(store.db, runId, calls);
      expect(rec.problems).toEqual([]);
      // Every kind of outcome happened, so the reconciliation checked each path.
      for (const outcome of ["completed", "invalid", "declined", "cancelled", "fallback", "repeat_prevented"])
        expect(
          calls.some((c) => c.outcome === outcome),
          outcome,
        ).toBe(true);
      expect(rec.records).toBe(calls.filter((c) => c.outcome !== "repeat_prevented").length);
    } finally {
      await store.close();
    }
  });
});
