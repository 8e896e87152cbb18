// The rollup, the overview and the metrics endpoint carry the record's protocol revision and keep
// apart the three ways a pending record ends without an answer: the person cancelled, the client
// went away (cancelled, end reason client_disconnected), nobody answered in time (timed_out).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { elicitationRecords, recordRollup } from "@/db/schema";
import { insertRecord, newRecordId, transition } from "@/lib/elicitation/records";
import { CLIENT_DISCONNECTED } from "@/lib/elicitation/wire";
import { dailyVolume, healthByGroup } from "@/lib/metrics/overview";
import { prometheusText } from "@/lib/metrics/prometheus";
import { rebuildRollup, rollupDrift } from "@/lib/metrics/rollup-check";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

async function make(revision: string, end: "person_cancelled" | "client_disconnected" | "timed_out" | "completed") {
  const id = newRecordId();
  await insertRecord(t.store.db, recordDraft({ id, subject: `s-${id}`, clientName: "C", protocolVersion: revision }), "sent");
  if (end === "person_cancelled")
    await transition(t.store.db, id, {
      move: "answer",
      to: "cancelled",
      actor: { type: "subject", id: "s" },
      set: { respondedAt: new Date() },
    });
  if (end === "client_disconnected")
    await transition(t.store.db, id, {
      move: "answer",
      to: "cancelled",
      reason: CLIENT_DISCONNECTED,
      set: { endReason: CLIENT_DISCONNECTED },
    });
  if (end === "timed_out") await transition(t.store.db, id, { move: "answer", to: "timed_out", reason: "no answer within the timeout" });
  if (end === "completed") await transition(t.store.db, id, { move: "settleForm", to: "completed", set: { respondedAt: new Date() } });
  return id;
}

// Legacy: 5 person cancels, 6 disconnects, 7 timeouts, 8 completed (26). Modern: 2, 0, 9, 5 (16).
const PLAN: Array<[string, Parameters<typeof make>[1], number]> = [
  [LEGACY, "person_cancelled", 5],
  [LEGACY, "client_disconnected", 6],
  [LEGACY, "timed_out", 7],
  [LEGACY, "completed", 8],
  [MODERN, "person_cancelled", 2],
  [MODERN, "timed_out", 9],
  [MODERN, "completed", 5],
];

beforeAll(async () => {
  t = await createTestStore();
  for (const [revision, end, n] of PLAN) for (let i = 0; i < n; i++) await make(revision, end);
});
afterAll(async () => {
  await t.dispose();
});

describe("revision and end reason in the rollup", () => {
  it("keeps the rollup equal to the records, revision and end reason included, and rebuilds it the same", async () => {
    expect(await rollupDrift(t.store.db)).toEqual([]);
    const rows = rowsOf<{ protocol_version: string; state: string; end_reason: string; n: number }>(
      await t.store.db.execute(
        sql`select protocol_version, state::text, end_reason, sum(records)::int as n from record_rollup group by 1, 2, 3 having sum(records) <> 0 order by 1, 2, 3`,
      ),
    );
    expect(rows).toEqual([
      { protocol_version: LEGACY, state: "cancelled", end_reason: "", n: 5 },
      { protocol_version: LEGACY, state: "cancelled", end_reason: CLIENT_DISCONNECTED, n: 6 },
      { protocol_version: LEGACY, state: "completed", end_reason: "", n: 8 },
      { protocol_version: LEGACY, state: "timed_out", end_reason: "", n: 7 },
      { protocol_version: MODERN, state: "cancelled", end_reason: "", n: 2 },
      { protocol_version: MODERN, state: "completed", end_reason: "", n: 5 },
      { protocol_version: MODERN, state: "timed_out", end_reason: "", n: 9 },
    ]);

    // A hand edit of the revision moves the count with it; a rollup row changed by hand is drift.
    const [one] = await t.store.db
      .select({ id: elicitationRecords.id })
      .from(elicitationRecords)
      .where(eq(elicitationRecords.protocolVersion, MODERN))
      .limit(1);
    await t.store.db.update(elicitationRecords).set({ protocolVersion: LEGACY }).where(eq(elicitationRecords.id, one!.id));
    expect(await rollupDrift(t.store.db)).toEqual([]);
    await t.store.db.update(elicitationRecords).set({ protocolVersion: MODERN }).where(eq(elicitationRecords.id, one!.id));
    await t.store.db.execute(sql`update record_rollup set records = records + 1 where end_reason = ${CLIENT_DISCONNECTED}`);
    const drift = await rollupDrift(t.store.db);
    expect(drift).toHaveLength(1);
    expect(drift[0]!.key).toContain(CLIENT_DISCONNECTED);
    expect(drift[0]!.key).toContain(LEGACY);
    await rebuildRollup(t.store.db);
    expect(await rollupDrift(t.store.db)).toEqual([]);
    expect((await t.store.db.select().from(recordRollup)).every((r) => r.protocolVersion !== "")).toBe(true);
  });

  it("groups the overview by revision and separates person cancelled, client went away and timed out", async () => {
    const rows = await healthByGroup(t.store.db, { period: "24h", by: "revision" });
    expect(rows).toEqual([
      expect.objectContaining({ group: LEGACY, total: 26, completed: 8, cancelled: 5, clientDisconnected: 6, timedOut: 7 }),
      expect.objectContaining({ group: MODERN, total: 16, completed: 5, cancelled: 2, clientDisconnected: 0, timedOut: 9 }),
    ]);
    // Grouped otherwise, the same separation holds.
    const [all] = await healthByGroup(t.store.db, { period: "24h", by: "client" });
    expect(all).toMatchObject({ group: "C 1", total: 42, cancelled: 7, clientDisconnected: 6, timedOut: 16 });
    // The volume chart counts only a person's cancels as refusals; a client that went away is a failure.
    const volume = await dailyVolume(t.store.db, { period: "24h", by: "revision" });
    const sum = (k: "completed" | "refused" | "failed") => volume.reduce((a, v) => a + v[k], 0);
    expect({ completed: sum("completed"), refused: sum("refused"), failed: sum("failed") }).toEqual({
      completed: 13,
      refused: 7,
      failed: 6 + 16,
    });
  });

  it("exports the three endings and the revisions store-wide for Prometheus", async () => {
    const text = await prometheusText(t.store.db);
    expect(text).toMatch(/^elicitation_endings\{ending="person_cancelled"\} 7$/m);
    expect(text).toMatch(/^elicitation_endings\{ending="client_disconnected"\} 6$/m);
    expect(text).toMatch(/^elicitation_endings\{ending="timed_out"\} 16$/m);
    expect(text).toMatch(/^elicitation_records_by_revision\{revision="2025-11-25"\} 26$/m);
    expect(text).toMatch(/^elicitation_records_by_revision\{revision="2026-07-28"\} 16$/m);
  });
});
