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
