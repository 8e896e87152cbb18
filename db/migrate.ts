// Applies the committed migrations in db/migrations. For PostgreSQL it uses a separate
// single-connection client and a session advisory lock, so two instances starting at once do not
// race each other through the same migration.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import postgres from "postgres";
import { rowsOf, type Store } from "./client";
import type { StoreConfig } from "./config";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

const MIGRATION_LOCK = 7_301_991;

export async function migrateStore(store: Store, config: StoreConfig): Promise<void> {
  if (store.kind === "pglite") {
    await migratePglite(store.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  if (config.kind !== "postgres") throw new Error("store and configuration disagree");
  const conn = postgres(config.url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres({ client: conn }), { migrationsFolder });
  } finally {
    await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    await conn.end({ timeout: 5 });
  }
}

/** The newest migration this build ships (its journal timestamp), read once. */
let shipped: number | undefined;
function newestShippedMigration(): number {
  if (shipped === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
      entries: Array<{ when: number }>;
    };
    shipped = Math.max(...journal.entries.map((e) => e.when));
  }
  return shipped;
}

/** True when the store has applied every migration this build ships (drizzle records each by its journal time). */
export async function migrationsCurrent(store: Store): Promise<boolean> {
  const result = await store.db.execute(sql`select coalesce(max(created_at), 0)::bigint as newest from drizzle.__drizzle_migrations`);
  const [row] = rowsOf<{ newest: string | number }>(result);
  return Number(row?.newest ?? 0) >= newestShippedMigration();
}
