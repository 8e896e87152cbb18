// Where the store lives. With DATABASE_URL: an external PostgreSQL server. Without it: the
// embedded PGlite store in DATA_DIR (default `.data/`), which one process holds at a time.
// The variables are entries of the one configuration table (db/config-settings.ts), read here.
import path from "node:path";
import { DB_SETTINGS, type Env, readFrom } from "./config-settings";

export type { Env };

export type StoreConfig =
  { kind: "postgres"; url: string; poolMax: number } | { kind: "pglite"; dataDir: string } | { kind: "pglite-memory" };

export function dataDirFromEnv(env: Env = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ readFrom(DB_SETTINGS.DATA_DIR, env, "DATA_DIR") ?? ".data");
}

export function storeConfigFromEnv(env: Env = process.env): StoreConfig {
  const url = readFrom(DB_SETTINGS.DATABASE_URL, env, "DATABASE_URL");
  if (url) return { kind: "postgres", url, poolMax: readFrom(DB_SETTINGS.DATABASE_POOL_MAX, env, "DATABASE_POOL_MAX") ?? 10 };
  return { kind: "pglite", dataDir: path.join(/*turbopackIgnore: true*/ dataDirFromEnv(env), "pglite") };
}

/** A connection string safe to print: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}
