// Drizzle wraps driver errors ("Failed query: ..."); the PostgreSQL error with its SQLSTATE code
// sits on `.cause`. Both drivers (postgres.js, PGlite) expose `code` and `message` there.
export interface PgErrorInfo {
  code?: string;
  message: string;
}

export function pgErrorOf(err: unknown): PgErrorInfo | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const e = cur as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, message: String(e.message) };
    cur = e.cause;
  }
  return undefined;
}

export type StoreFailure = "unavailable" | "read_only" | "disk_full";

const FAILURE_TEXT: Record<StoreFailure, string> = {
  unavailable: "the database is unreachable",
  read_only: "the database is read-only",
  disk_full: "the database is out of disk space",
};

/**
 * Classifies an error as the store being unable to take writes or queries at all (as opposed to a
 * bug or a constraint): callers turn it into a clear "nothing was done" instead of a stack trace.
 */
export function storeFailureOf(err: unknown): StoreFailure | undefined {
  const pg = pgErrorOf(err);
  if (pg?.code) {
    if (pg.code === "25006") return "read_only"; // read_only_sql_transaction
    if (pg.code === "53100") return "disk_full";
    if (pg.code.startsWith("08") || pg.code.startsWith("57P")) return "unavailable"; // connection exceptions, admin shutdown, cannot connect now
  }
  // postgres.js reports lost and refused connections with these codes (not SQLSTATEs).
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|CONNECT_TIMEOUT)$/.test(code)
    )
      return "unavailable";
    if ((cur as { name?: unknown }).name === "StoreUnavailableError") return "unavailable";
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function storeFailureText(f: StoreFailure): string {
  return FAILURE_TEXT[f];
}
