// Per-instance metrics (prom-client): what this process served and how it is doing. Each instance
// reports its own figures, so a dashboard sums them across instances; the store-wide aggregates
// (prometheus.ts) are the same on every instance and are served under the `store_` family
// (store-family.ts) so that nobody sums them by mistake.
//
// Labels are value-free and bounded: route templates (route-label.ts), JSON-RPC method names from
// a fixed list, modes and states from the schema's enums, outcome keywords. Never a user id, a
// session id, a path segment or free text.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Seconds; from 5 ms to 2 min, since an MCP call that waits on a person is legitimately long. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface PoolSource {
  /** Connections the pool may open (postgres.js `max`; 1 for embedded PGlite). */
  max: number;
  /** Queries and transactions holding a connection right now. */
  busy(): number;
}

function build() {
  const registry = new Registry();
  // process_resident_memory_bytes, nodejs_heap_size_used_bytes, nodejs_eventloop_lag_seconds
  // (and its percentiles), process CPU, handles: prom-client's standard set, per process.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const pools: { current?: PoolSource | undefined } = {};
  const sessions: { count?: () => number } = {};
  return {
    registry,
    pools,
    sessions,
    httpRequests: new Counter({
      name: "http_server_requests_total",
      help: "HTTP requests answered by this instance, by route template, method and status class.",
      labelNames: ["route", "method", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "http_server_request_duration_seconds",
      help: "HTTP request latency on this instance, by route template, method and status class.",
      labelNames: ["route", "method", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    mcpRequests: new Counter({
      name: "mcp_requests_total",
      help: "MCP HTTP requests on this instance, by JSON-RPC method and outcome.",
      labelNames: ["method", "outcome"] as const,
      registers: [registry],
    }),
    mcpDuration: new Histogram({
      name: "mcp_request_duration_seconds",
      help: "MCP request latency on this instance (a tools/call waits for the person's answer).",
      labelNames: ["method", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    liveSessions: new Gauge({
      name: "mcp_sessions_live",
      help: "Stateful MCP sessions held open by this instance.",
      registers: [registry],
      collect() {
        this.set(sessions.count?.() ?? 0);
      },
    }),
    elicitationsStarted: new Counter({
      name: "elicitations_started_total",
      help: "Elicitation records this instance created, by mode.",
      labelNames: ["mode"] as const,
      registers: [registry],
    }),
    elicitationsFinished: new Counter({
      name: "elicitations_finished_total",
      help: "Elicitation records this instance moved to a final state, by mode and state.",
      labelNames: ["mode", "outcome"] as const,
      registers: [registry],
    }),
    poolMax: new Gauge({
      name: "db_pool_connections_max",
      help: "Database connections this instance's pool may open.",
      registers: [registry],
      collect() {
        this.set(pools.current?.max ?? 0);
      },
    }),
    poolBusy: new Gauge({
      name: "db_pool_connections_busy",
      help: "Database connections of this instance busy with a query or a transaction.",
      registers: [registry],
      collect() {
        this.set(Math.min(pools.current?.busy() ?? 0, pools.current?.max ?? 0));
      },
    }),
  };
}

export type InstanceMetrics = ReturnType<typeof build>;

// On globalThis: the app server and the Next.js bundles of one process (the /api/metrics route,
// the connect pages) must count into one registry, whichever copy of this module they loaded.
const holder = globalThis as typeof globalThis & { __instanceMetrics?: InstanceMetrics };

export function instanceMetrics(): InstanceMetrics {
  return (holder.__instanceMetrics ??= build());
}

/** The Prometheus text of this instance's registry. */
export function instanceMetricsText(): Promise<string> {
  return instanceMetrics().registry.metrics();
}

/** Tells the pool gauges which store this process serves from. */
export function watchPool(source: PoolSource | undefined): void {
  instanceMetrics().pools.current = source;
}

/** Tells the live-session gauge how to count this process's MCP sessions. */
export function watchSessions(count: () => number): void {
  instanceMetrics().sessions.count = count;
}
