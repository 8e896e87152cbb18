import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, elicitationRecords, elicitationState, mcpSessions, upstreams } from "@/db/schema";
import { DEMO_UPSTREAM_ID, seedDemoUpstream } from "@/lib/demo/seed-upstream";
import { upstreamOutcomes } from "@/lib/gateway/queries";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { DEMO_CLIENTS } from "@/lib/demo/clients";
import { isStoreEmpty, seedDemo } from "@/lib/demo/seed";
import { storeCounts } from "@/lib/metrics/store-counts";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t.dispose();
});

describe("demo seed", () => {
  it("fills an empty store with history in every state, from several real clients, over 30 days", async () => {
    expect(await isStoreEmpty(t.store.db)).toBe(true);
    const now = new Date("2026-11-30T12:00:00Z");
    const summary = await seedDemo(t.store.db, { records: 4000, now });
    expect(await isStoreEmpty(t.store.db)).toBe(false);

    const states = await t.store.db.selectDistinct({ state: elicitationRecords.state }).from(elicitationRecords);
    // "created" is transient (the engine moves to "sent" in the same request), so history never rests there.
    expect(states.map((s) => s.state).sort()).toEqual(elicitationState.enumValues.filter((s) => s !== "created").sort());
    const modes = await t.store.db.selectDistinct({ mode: elicitationRecords.mode }).from(elicitationRecords);
    expect(modes.map((m) => m.mode).sort()).toEqual(["form", "url"]);
    const clients = await t.store.db.selectDistinct({ name: mcpSessions.clientName }).from(mcpSessions);
    expect(clients.length).toBeGreaterThanOrEqual(new Set(DEMO_CLIENTS.map((c) => c.name)).size - 1);

    const [span] = await t.store.db
      .select({ oldest: sql<string>`min(${elicitationRecords.createdAt})`, newest: sql<string>`max(${elicitationRecords.createdAt})` })
      .from(elicitationRecords);
    expect(now.getTime() - new Date(span!.oldest).getTime()).toBeGreaterThan(25 * 86_400_000);
    expect(new Date(span!.newest).getTime()).toBeLessThanOrEqual(now.getTime());

    // Both revisions, and cancels by a person and by a client that went away, for the overview to separate.
    const revisions = await t.store.db.selectDistinct({ v: elicitationRecords.protocolVersion }).from(elicitationRecords);
    expect(revisions.map((r) => r.v).sort()).toEqual(["2025-11-25", "2026-07-28"]);
    const ends = await t.store.db
      .selectDistinct({ r: elicitationRecords.endReason })
      .from(elicitationRecords)
      .where(sql`${elicitationRecords.state} = 'cancelled'`);
    expect(ends.map((e) => e.r ?? "person").sort()).toEqual(["client_disconnected", "person"]);
    const [modernWithSession] = await t.store.db
      .select({ n: count() })
      .from(elicitationRecords)
      .where(sql`${elicitationRecords.protocolVersion} = '2026-07-28' and ${elicitationRecords.sessionId} is not null`);
    expect(modernWithSession!.n).toBe(0);

    const counts = await storeCounts(t.store.db);
    expect(counts.records).toBe(4000);
    expect(counts.sessions).toBe(summary.sessions);
    expect(counts.audit.entries).toBe(summary.auditEntries);
    expect(await verifyStoredChain(t.store.db)).toMatchObject({ ok: true, count: summary.auditEntries });
  });

  it("the demo's upstream step registers it for acme with its flows and two weeks of its own records, so the console shows it from the start", async () => {
    // A store of its own: this test does not lean on the one the first test seeded.
    const own = await createTestStore();
    try {
      const db = own.store.db;
      const now = new Date("2026-11-30T12:00:00Z");
      await seedDemo(db, { records: 50, now });
      expect(await db.select().from(upstreams)).toEqual([]);
      expect(await seedDemoUpstream(db, { records: 200, now })).toEqual({ records: 200 });
      const [row] = await db.select().from(upstreams).where(eq(upstreams.id, DEMO_UPSTREAM_ID));
      expect(row).toMatchObject({ tenants: ["acme"], exposedTools: ["*"], urlOrigins: ["https://example.com"], authKind: "none" });
      const outcomes = (await upstreamOutcomes(db)).get(DEMO_UPSTREAM_ID) ?? {};
      // Mostly completed, with declines and failures among them.
      expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(200);
      expect(outcomes.completed).toBeGreaterThan(80);
      expect(outcomes.declined).toBeGreaterThan(0);
      expect(outcomes.failed).toBeGreaterThan(0);
      // Only acme's people, each record on a flow that exists, and the registration in the audit log.
      const tenantsOf = await db
        .selectDistinct({ tenant: elicitationRecords.tenantId })
        .from(elicitationRecords)
        .where(eq(elicitationRecords.upstreamId, DEMO_UPSTREAM_ID));
      expect(tenantsOf).toEqual([{ tenant: "acme" }]);
      const [orphans] = await db
        .select({ n: count() })
        .from(elicitationRecords)
        .where(
          sql`${elicitationRecords.upstreamId} is not null and (${elicitationRecords.flowId} is null or ${elicitationRecords.upstreamRequestId} is null)`,
        );
      expect(orphans!.n).toBe(0);
      const [added] = await db
        .select({ n: count() })
        .from(auditLog)
        .where(sql`${auditLog.action} = 'upstream.added' and ${auditLog.targetId} = ${DEMO_UPSTREAM_ID}`);
      expect(added!.n).toBe(1);
      expect(await verifyStoredChain(db)).toMatchObject({ ok: true });
    } finally {
      await own.dispose();
    }
  });

  it("writes no value anywhere: only field names, hashes and error keywords", async () => {
    const [n] = await t.store.db
      .select({ n: count() })
      .from(elicitationRecords)
      .where(sql`jsonb_typeof(${elicitationRecords.validationErrors}) <> 'array'`);
    expect(n!.n).toBe(0);
    const keys = await t.store.db.execute(
      sql`select distinct jsonb_object_keys(e) as k from elicitation_records, jsonb_array_elements(validation_errors) e`,
    );
    const list = (Array.isArray(keys) ? keys : (keys as { rows: { k: string }[] }).rows).map((r: { k: string }) => r.k).sort();
    expect(list).toEqual(["field", "keyword"]);
  });
});
