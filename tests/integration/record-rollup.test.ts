// The hourly rollup behind the overview and the metrics endpoint: kept exactly in step with the
// records by every kind of write (insert, transition, prevented repeat, bulk revocation,
// reconciliation), bucketed the same way in SQL and TypeScript, and giving the same counts as the
// raw table for any period, with percentiles exact to the bucket.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { elicitationRecords, recordRollup } from "@/db/schema";
import { countPreventedRepeat } from "@/lib/elicitation/cooldown";
import { reconcileStaleRecords } from "@/lib/elicitation/reconcile";
import { insertRecord, newRecordId, transition } from "@/lib/elicitation/records";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { healthByGroup } from "@/lib/metrics/overview";
import { RESUME_BUCKET_BOUNDS, percentileFromHistogram } from "@/lib/metrics/resume-buckets";
import { rebuildRollup, rollupDrift } from "@/lib/metrics/rollup-check";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const HOUR = 3_600_000;

async function record(opts: { client: string; hoursAgo: number; mode?: "form" | "url" }): Promise<string> {
  const id = newRecordId();
  const mode = opts.mode ?? "form";
  await insertRecord(t.store.db, recordDraft({ id, mode, needKind: "field", subject: `s-${id}`, clientName: opts.client }), "sent");
  const at = new Date(Date.now() - opts.hoursAgo * HOUR).toISOString();
  await t.store.db
    .update(elicitationRecords)
    .set({ createdAt: sql`${at}::timestamptz`, sentAt: sql`${at}::timestamptz` })
    .where(eq(elicitationRecords.id, id));
  return id;
}

async function answer(id: string, to: "completed" | "declined", afterSeconds: number) {
  const [row] = await t.store.db
    .select({ sentAt: elicitationRecords.sentAt })
    .from(elicitationRecords)
    .where(eq(elicitationRecords.id, id));
  const set = { respondedAt: new Date(row!.sentAt!.getTime() + afterSeconds * 1000) };
  // A completed form answer passes through accepted (the engine's settleForm move); a decline does not.
  if (to === "completed") await transition(t.store.db, id, { move: "settleForm", to, set });
  else await transition(t.store.db, id, { move: "answer", to, set });
}

beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t.dispose();
});

describe("record rollup", () => {
  it("buckets time-to-resume in SQL exactly as the TypeScript bounds say", async () => {
    const probes = RESUME_BUCKET_BOUNDS.flatMap((b, i) => [
      { seconds: b - 0.001, bucket: i },
      { seconds: b, bucket: i + 1 },
    ]);
    for (const p of probes) {
      const [row] = rowsOf<{ b: number }>(
        await t.store.db.execute(
          sql`select record_resume_bucket('2026-01-01T00:00:00Z'::timestamptz, '2026-01-01T00:00:00Z'::timestamptz + ${p.seconds} * interval '1 second') as b`,
        ),
      );
      expect(row!.b, `${p.seconds} s`).toBe(p.bucket);
    }
    const [none] = rowsOf<{ b: number }>(await t.store.db.execute(sql`select record_resume_bucket(now(), null) as b`));
    expect(none!.b).toBe(-1);
  });

  it("stays equal to the records through every kind of write", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(await record({ client: i % 3 === 0 ? "Alpha" : "Beta", hoursAgo: (i * 7) % 50, mode: i % 5 === 0 ? "url" : "form" }));
    for (let i = 0; i < 30; i++) await answer(ids[i]!, i % 4 === 0 ? "declined" : "completed", 1 + i * 3);
    for (const id of ids.slice(0, 8)) await countPreventedRepeat(t.store.db, id);
    await revokeRecords(t.store.db, { type: "operator", id: "op" }, { ids: ids.slice(30, 34) }, "drill");
    await reconcileStaleRecords(t.store.db, { formTimeoutMs: 0 }, new Date(Date.now() + 120_000));
    expect(await rollupDrift(t.store.db)).toEqual([]);

    // A hand edit is followed too (the trigger sees every UPDATE), and so is a bulk one.
    await t.store.db.update(elicitationRecords).set({ clientName: "Gamma" }).where(eq(elicitationRecords.id, ids[0]!));
    await t.store.db.update(elicitationRecords).set({ preventedRepeats: sql`${elicitationRecords.preventedRepeats} + 2` });
    expect(await rollupDrift(t.store.db)).toEqual([]);

    // The repair path rebuilds the same rollup from scratch.
    const before = await t.store.db
      .select()
      .from(recordRollup)
      .where(sql`records <> 0 or prevented_repeats <> 0`)
      .orderBy(recordRollup.hour, recordRollup.clientName, recordRollup.state, recordRollup.resumeBucket);
    await rebuildRollup(t.store.db);
    const after = await t.store.db
      .select()
      .from(recordRollup)
      .orderBy(recordRollup.hour, recordRollup.clientName, recordRollup.state, recordRollup.resumeBucket);
    expect(after).toEqual(before);
  });

  it("answers the overview with the raw table's counts, percentiles exact to the bucket", async () => {
    const now = new Date();
    const rows = await healthByGroup(t.store.db, { period: "24h", by: "client" }, now);
    const since = new Date(now.getTime() - 24 * HOUR).toISOString();
    const raw = rowsOf<{ grp: string; total: number; completed: number; p50: number | null }>(
      await t.store.db
        .execute(sql`select client_name || ' ' || client_version as grp, count(*)::int as total, (count(*) filter (where state = 'completed'))::int as completed,
        percentile_cont(0.5) within group (order by extract(epoch from responded_at - sent_at)) as p50
        from elicitation_records where created_at >= ${since}::timestamptz group by 1`),
    );
    const big = raw.filter((r) => r.total >= 5);
    expect(big.length).toBeGreaterThan(0);
    for (const r of big) {
      const mine = rows.find((g) => g.group === r.grp)!;
      expect({ total: mine.total, completed: mine.completed }).toEqual({ total: r.total, completed: r.completed });
      if (r.p50 !== null) {
        // Same bucket as the exact value.
        const bucketOf = (s: number) => RESUME_BUCKET_BOUNDS.filter((b) => b <= s).length;
        expect(Math.abs(bucketOf(mine.resumeP50s!) - bucketOf(Number(r.p50)))).toBeLessThanOrEqual(1);
      }
    }
  });

  it("estimates percentiles from a histogram by interpolating inside the bucket", () => {
    // 10 answers in [10, 15) s and 10 in [15, 20) s: the median sits at the boundary.
    const hist = new Map([
      [6, 10],
      [7, 10],
      [-1, 99],
    ]);
    expect(percentileFromHistogram(hist, 0.5)).toBe(15);
    expect(percentileFromHistogram(hist, 0.95)).toBeCloseTo(19.5);
    expect(percentileFromHistogram(new Map([[-1, 3]]), 0.5)).toBeNull();
  });
});
