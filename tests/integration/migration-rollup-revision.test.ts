// Migrations 0012/0013 widen the rollup with the protocol revision and the end reason on a store
// that already has records: a record cancelled because its client went away before the migration
// (the reason then lived only in its last event) gets the end reason on the record, and the rebuilt
// rollup equals a fresh aggregate, split by revision and reason.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Db, type Store } from "@/db/client";
import { rollupDrift } from "@/lib/metrics/rollup-check";
import { storeBeforeMigration, type StoreBeforeMigration } from "../helpers/store-before-migration";

let start: StoreBeforeMigration;
let store: Store;

async function oldRecord(id: string, revision: string, state: string, lastReason: string | null) {
  await store.db.execute(sql`
    insert into elicitation_records (id, mode, state, need_kind, subject, tenant_id, client_name, client_version, protocol_version, request_method, request_id, tool_name, purpose, route_decision, route_reason, sent_at)
    values (${id}, 'form', ${state}::elicitation_state, 'field', 's', 'acme', 'C', '1', ${revision}, 'tools/call', '1', 't', 'p', 'form', 'r', now())`);
  await store.db.execute(sql`
    insert into elicitation_events (record_id, from_state, to_state, at, actor_type, actor_id, reason, detail) values
      (${id}, null, 'created', now(), 'system', 'engine', null, '{}'),
      (${id}, 'created', 'sent', now(), 'system', 'engine', null, '{}'),
      (${id}, 'sent', ${state}::elicitation_state, now(), 'system', 'engine', ${lastReason}, '{}')`);
}

beforeAll(async () => {
  start = await storeBeforeMigration("_rollup-revision-reason");
  store = start.store;
  await oldRecord("a".repeat(32), "2025-11-25", "cancelled", "client_disconnected");
  await oldRecord("b".repeat(32), "2025-11-25", "cancelled", null);
  await oldRecord("c".repeat(32), "2026-07-28", "timed_out", "the request state expired before an answer arrived");
  await start.migrateToLatest();
});
afterAll(async () => {
  await start?.dispose();
});

describe("rollup revision and end reason migrations", () => {
  it("copy a disconnect's reason onto its record and rebuild the rollup split by revision and reason", async () => {
    const db = store.db as Db;
    const records = rowsOf<{ id: string; end_reason: string | null }>(
      await db.execute(sql`select id, end_reason::text from elicitation_records order by id`),
    );
    expect(records.map((r) => r.end_reason)).toEqual(["client_disconnected", null, null]);
    const rollup = rowsOf<{ protocol_version: string; state: string; end_reason: string; records: number }>(
      await db.execute(sql`select protocol_version, state::text, end_reason, records::int from record_rollup order by 1, 2, 3`),
    );
    expect(rollup).toEqual([
      { protocol_version: "2025-11-25", state: "cancelled", end_reason: "", records: 1 },
      { protocol_version: "2025-11-25", state: "cancelled", end_reason: "client_disconnected", records: 1 },
      { protocol_version: "2026-07-28", state: "timed_out", end_reason: "", records: 1 },
    ]);
    expect(await rollupDrift(db)).toEqual([]);
  });
});
