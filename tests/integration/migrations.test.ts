import { afterAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { migrateStore } from "@/db/migrate";
import { sql } from "drizzle-orm";
import { createTestStore, requirePostgresInCi, type TestStore } from "../helpers/test-store";

const EXPECTED_TABLES = [
  "approvals",
  "audit_coalesce",
  "audit_log",
  "client_profiles",
  "console_sessions",
  "downstream_connections",
  "elicitation_events",
  "elicitation_records",
  "flows",
  "gate_evidence",
  "gate_runs",
  "idp_records",
  "kill_switch_events",
  "kill_switches",
  "mcp_sessions",
  "operators",
  "origins",
  "providers",
  "rate_limits",
  "record_rollup",
  "tenants",
  "upstreams",
  "vault_secrets",
];

async function tablesOf(t: TestStore): Promise<string[]> {
  const r = await t.store.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`);
  return rowsOf<{ table_name: string }>(r).map((x) => x.table_name);
}

async function triggersOf(t: TestStore): Promise<string[]> {
  const r = await t.store.db.execute(
    sql`select tgname from pg_trigger where tgrelid = 'audit_log'::regclass and not tgisinternal order by 1`,
  );
  return rowsOf<{ tgname: string }>(r).map((x) => x.tgname);
}

describe.each(["pglite", "default"] as const)("migrations on %s", (kind) => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.dispose();
  });

  it("create every table and the audit triggers, and are idempotent", async () => {
    requirePostgresInCi();
    const t = await createTestStore(kind);
    stores.push(t);
    if (kind === "default") expect(t.store.kind).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    expect(await tablesOf(t)).toEqual(EXPECTED_TABLES);
    expect(await triggersOf(t)).toEqual(["audit_log_link", "audit_log_no_truncate", "audit_log_no_update_delete"]);
    // Running them again changes nothing and does not fail.
    await migrateStore(t.store, t.config);
    expect(await tablesOf(t)).toEqual(EXPECTED_TABLES);
  });
});
