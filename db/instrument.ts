// Counts what holds a database connection (for the pool gauges) and, when a traced request is
// running, opens one span per query or transaction. Only the drizzle client is wrapped (a Proxy),
// never the shared postgres.js instance, so LISTEN, COPY and cursors keep their own behaviour.
// A transaction is one span and one busy connection; its inner queries are not counted twice.
//
// Span attributes: the database system and the statement's first keyword. Never the statement's
// text or its parameters (identifiers and hashes today, but the rule is cheaper than the audit).
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

const TRACER = "elicitation-gateway";
const KEYWORDS = new Set(["select", "insert", "update", "delete", "with", "begin", "lock", "listen", "notify", "copy"]);

export interface PoolUse {
  max: number;
  busy(): number;
}

function operationOf(query: unknown): string {
  const first = typeof query === "string" ? /^\s*([a-z]+)/i.exec(query)?.[1]?.toLowerCase() : undefined;
  return first && KEYWORDS.has(first) ? first : "other";
}

export function createPoolUse(max: number): PoolUse & { observe<T>(name: string, query: unknown, run: () => Promise<T>): Promise<T> } {
  let busy = 0;
  return {
    max,
    busy: () => busy,
    async observe(name, query, run) {
      busy += 1;
      // A span only under a recording parent (a traced request): background work (reconciler,
      // sweeper) and untraced deployments open none.
      const parent = trace.getActiveSpan();
      const span = parent?.isRecording()
        ? trace.getTracer(TRACER).startSpan(name, {
            kind: SpanKind.CLIENT,
            attributes: { "db.system.name": "postgresql", "db.operation.name": operationOf(query) },
          })
        : undefined;
      try {
        return await run();
      } catch (err) {
        span?.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
        throw err;
      } finally {
        busy -= 1;
        span?.end();
      }
    },
  };
}

type Observer = ReturnType<typeof createPoolUse>;

/** postgres.js as drizzle sees it: `unsafe` (every query) and `begin` (transactions) observed. */
export function instrumentPostgres<C extends object>(client: C, use: Observer): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === "unsafe" && typeof v === "function") {
        return (query: string, ...rest: unknown[]) => {
          const pending = (v as (...a: unknown[]) => Promise<unknown> & object).call(target, query, ...rest);
          // The query object itself goes back to drizzle (it calls .values() on it); observing
          // its settlement does not change when or how it runs.
          void use.observe("db.query", query, () => pending).catch(() => {});
          return pending;
        };
      }
      if (prop === "begin" && typeof v === "function") {
        return (...args: unknown[]) =>
          use.observe("db.transaction", "begin", () => (v as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      // Other methods run on the real object: PGlite keeps private fields a Proxy cannot reach.
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** PGlite as drizzle sees it: `query` and `transaction`. */
export function instrumentPglite<C extends object>(client: C, use: Observer): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === "query" || prop === "transaction") && typeof v === "function") {
        return (...args: unknown[]) =>
          use.observe(prop === "query" ? "db.query" : "db.transaction", prop === "query" ? args[0] : "begin", () =>
            (v as (...a: unknown[]) => Promise<unknown>).apply(target, args),
          );
      }
      // Other methods run on the real object: PGlite keeps private fields a Proxy cannot reach.
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
