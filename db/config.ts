// Where the store lives. With DATABASE_URL: an external PostgreSQL server. Without it: the
// embedded PGlite store in DATA_DIR (default `.data/`), which one process holds at a time.
import path from "node:path";

// A plain environment map (Next types NODE_ENV as required on ProcessEnv, which partial test maps lack).
export type Env = Record<string, string | undefined>;

export type StoreConfig =
  | { kind: "postgres"; url: string; poolMax: number }
  | { kind: "pglite"; dataDir: string }
  | { kind: "pglite-memory" };

export function dataDirFromEnv(env: Env = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || ".data");
}

export function storeConfigFromEnv(env: Env = process.env): StoreConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    const poolMax = Number(env.DATABASE_POOL_MAX ?? "10");
    if (!Number.isInteger(poolMax) || poolMax < 1) {
      throw new Error("DATABASE_POOL_MAX must be a positive whole number");
    }
    return { kind: "postgres", url, poolMax };
  }
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
