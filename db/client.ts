// Opens the store: PostgreSQL through postgres.js when DATABASE_URL is set, embedded PGlite
// otherwise. Both run the same schema and migrations, and both are exposed as the same drizzle
// `Db` type, so lib/ never knows which one it talks to.
import { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { redactUrl, type StoreConfig } from "./config";
import * as schema from "./schema";
import { createPoolUse, instrumentPglite, instrumentPostgres, type PoolUse } from "./instrument";
import { lockDataDir } from "./store-lock";

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

export interface Store {
  db: Db;
  kind: "postgres" | "pglite";
  /** Human-readable location, safe to print (no password). */
  location: string;
  /** The postgres.js client when kind is postgres (LISTEN/NOTIFY, COPY, cursors). */
  sql?: postgres.Sql;
  /** The PGlite instance when kind is pglite. */
  pglite?: PGlite;
  /** How much of the connection pool is in use (the per-instance pool gauges). */
  pool?: PoolUse;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** What this process is, shown to a second process that finds the embedded store busy. */
  purpose?: string;
}

export async function openStore(config: StoreConfig, options: OpenOptions = {}): Promise<Store> {
  if (config.kind === "postgres") return openPostgres(config.url, config.poolMax);
  if (config.kind === "pglite-memory") {
    const pg = await PGlite.create();
    const pool = createPoolUse(1);
    return {
      db: drizzlePglite({ client: instrumentPglite(pg, pool), schema }) as unknown as Db,
      kind: "pglite",
      location: "memory",
      pglite: pg,
      pool,
      close: () => pg.close(),
    };
  }
  const release = await lockDataDir(config.dataDir, options.purpose ?? `pid ${process.pid}`);
  try {
    const pg = await PGlite.create(config.dataDir);
    const pool = createPoolUse(1);
    return {
      db: drizzlePglite({ client: instrumentPglite(pg, pool), schema }) as unknown as Db,
      kind: "pglite",
      location: config.dataDir,
      pglite: pg,
      pool,
      close: async () => {
        await pg.close();
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

async function openPostgres(url: string, poolMax: number): Promise<Store> {
  const sql = postgres(url, {
    max: poolMax,
    connect_timeout: 3,
    // postgres.js waits up to 20 s between reconnection attempts after repeated failures (3^n/100 s),
    // so a request arriving just after a database restart could hang that long. Capped at 0.5 s:
    // requests fail fast while the database is down and succeed as soon as it is back.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    onnotice: () => {},
    // Prepared statements are cached per connection: the console's hot queries benefit.
    prepare: true,
  });
  try {
    await sql`select 1`;
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    const reason = err instanceof Error ? err.message : String(err);
    throw new StoreUnavailableError(`cannot reach PostgreSQL at ${redactUrl(url)}: ${reason}`);
  }
  const pool = createPoolUse(poolMax);
  return {
    db: drizzlePostgres({ client: instrumentPostgres(sql, pool), schema }) as unknown as Db,
    kind: "postgres",
    location: redactUrl(url),
    sql,
    pool,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Rows of a raw `db.execute(sql...)`: postgres.js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error("unexpected query result shape");
  return rows as T[];
}
