// The client-profiles, flows-by-profile and flows-drop-client-name migrations move existing flows from "workflow x clientInfo name" to "workflow x client
// profile" on a store that already has flows: ids that are valid profile ids keep their flow and
// stage, anything else becomes an unselectable legacy profile, and a flow a client pre-created by
// calling itself "unregistered" is reset to off, so it cannot pre-set the stage every unmapped
// client now shares.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Store } from "@/db/client";
import { storeBeforeMigration, type StoreBeforeMigration } from "../helpers/store-before-migration";

let start: StoreBeforeMigration;
let store: Store;

beforeAll(async () => {
  // The migrations as they were before client profiles.
  start = await storeBeforeMigration("_client-profiles");
  store = start.store;
  const long = "x".repeat(300);
  await store.db.execute(sql`
    insert into flows (id, workflow, client_name, server_version, stage, canary_percent, fingerprint, fingerprint_inputs, retest_required) values
      ('generate_report:claude-code', 'generate_report', 'claude-code', '0.1.0', 'promoted', 0, 'f1', '{}', false),
      ('generate_report:sectest-gov-2', 'generate_report', 'sectest-gov-2', '0.1.0', 'rolled_back', 100, 'f2', '{}', true),
      ('generate_report:unregistered', 'generate_report', 'Unregistered', '0.1.0', 'canary', 100, 'f3', '{}', false),
      (${`generate_report:${long}`}, 'generate_report', ${long}, '0.1.0', 'canary', 100, 'f4', '{}', true)`);
  await start.migrateToLatest();
});
afterAll(async () => {
  await start?.dispose();
});

describe("migrating flows to client profiles", () => {
  it("keeps valid ids, fences off the rest, and resets a pre-created unregistered flow", async () => {
    const rows = rowsOf<{ id: string; profile_id: string; stage: string; canary_percent: number }>(
      await store.db.execute(sql`select id, profile_id, stage, canary_percent from flows order by id`),
    );
    const by = new Map(rows.map((r) => [r.id, r]));
    expect(by.get("generate_report:claude-code")).toMatchObject({ profile_id: "claude-code", stage: "promoted" });
    expect(by.get("generate_report:sectest-gov-2")).toMatchObject({ profile_id: "sectest-gov-2", stage: "rolled_back" });
    expect(by.get("generate_report:unregistered")).toMatchObject({ profile_id: "unregistered", stage: "off", canary_percent: 0 });
    const legacy = by.get(`generate_report:${"x".repeat(300)}`)!;
    expect(legacy.profile_id).toMatch(/^legacy-[0-9a-f]{12}$/);
    expect(rows.every((r) => /^[a-z0-9][a-z0-9-]{0,62}$/.test(r.profile_id))).toBe(true);
    const cols = rowsOf<{ column_name: string }>(
      await store.db.execute(sql`select column_name from information_schema.columns where table_name = 'flows'`),
    ).map((c) => c.column_name);
    expect(cols).toContain("profile_id");
    expect(cols).not.toContain("client_name");
  });

  it("refuses a profile id of the wrong shape even from SQL", async () => {
    await expect(
      store.db.execute(
        sql`insert into client_profiles (client_id, profile_id, display_name, created_by) values ('c', 'Bad Profile', 'x', 'psql')`,
      ),
    ).rejects.toThrow();
    expect(rowsOf(await store.db.execute(sql`select * from client_profiles`))).toEqual([]);
  });
});
