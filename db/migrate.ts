// Applies the committed migrations in db/migrations. For PostgreSQL it uses a separate
// single-connection client and a session advisory lock, so two instances starting at once do not
// race each other through the same migration.
import { fileURLToPath } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import postgres from "postgres";
import type { Store } from "./client";
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
