// The production server: one Node process that owns the store and hands requests to Next.js.
// Keeping the store here (not inside a route's bundle) means the embedded PGlite lock is taken
// once, before any request, and a busy store is reported at start-up instead of on first use.
import http from "node:http";
import next from "next";
import type { Store } from "@/db/client";
import { logger } from "@/lib/log/logger";
import { strictTransportSecurity } from "@/lib/http/csp";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { engineConfig } from "@/lib/elicitation/config";
import { startReconciler } from "@/lib/elicitation/reconcile";
import { cachedPolicy } from "@/lib/policy/policy-source";
import { createAppRoutes } from "./app-routes";
import { openControlChannel } from "./control-channel";
import { readinessCheck } from "./health";
import { Lifecycle } from "./lifecycle";
import { watchPool } from "@/lib/metrics/instance-metrics";
import { observeRequest } from "@/lib/telemetry/http-request";
import { startTracing, stopTracing } from "@/lib/telemetry/tracing";

export interface ServeOptions {
  port: number;
  hostname: string;
  dir: string;
  store: Store;
  /** The embedded store's directory: opens the local control channel for `ctl` (PGlite only). */
  controlDir?: string;
}

export interface Served {
  server: http.Server;
  lifecycle: Lifecycle;
}

export async function serve(options: ServeOptions): Promise<Served> {
  // db/index.ts reads the shared store from here, so every bundle in this process reuses it.
  (globalThis as typeof globalThis & { __elicitationStore?: Promise<Store> }).__elicitationStore = Promise.resolve(options.store);
  // Tracing first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so every later span has a provider.
  startTracing();
  watchPool(options.store.pool);
  // next-auth reads NEXTAUTH_URL; it is APP_URL, the one public origin of this deployment.
  process.env.NEXTAUTH_URL = oidcConfig().appUrl;
  // The policy (kill switches, flows) in memory, dropped on the database's change notification.
  const policy = await cachedPolicy(options.store);
  const routes = createAppRoutes(async () => options.store.db, policy);
  const app = next({ dev: false, dir: options.dir, hostname: options.hostname, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const host = options.hostname === "0.0.0.0" || options.hostname === "::" ? "127.0.0.1" : options.hostname;
  const control = options.controlDir
    ? openControlChannel(options.store, options.controlDir, `http://${host.includes(":") ? `[${host}]` : host}:${options.port}`)
    : undefined;
  // HSTS on every response of an HTTPS deployment, the MCP endpoint and identity provider included.
  const hsts = strictTransportSecurity(oidcConfig().appUrl);
  const lifecycle = new Lifecycle();
  const readiness = readinessCheck({ store: options.store, policy, lifecycle });
  const mcpPath = new URL(oidcConfig().mcpResource).pathname;
  const server = http.createServer((req, res) => {
    if (hsts) res.setHeader("strict-transport-security", hsts);
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/healthz" || path === "/readyz") {
      void answerHealth(path, readiness, res);
      return;
    }
    if (lifecycle.draining && startsSomethingNew(req, path, mcpPath)) {
      res.writeHead(503, { "retry-after": "1", "content-type": "application/json", connection: "close" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "this instance is shutting down: retry, another instance will take the request" },
          id: null,
        }),
      );
      return;
    }
    // Requests in flight hold the shutdown until they end or the grace period is over.
    const tracked = req.method === "POST" ? <T>(work: () => Promise<T>) => lifecycle.track(work) : <T>(work: () => Promise<T>) => work();
    observeRequest(req, res, mcpPath, () =>
      tracked(() => (control ? control.handle(req, res) : Promise.resolve(false)).then((done) => done || routes(req, res))).then((done) =>
        done ? undefined : handle(req, res),
      ),
    ).catch((err: unknown) => {
      // The path only, never the query string: it may carry state or codes.
      logger.error({ path: (req.url ?? "").split("?")[0], error: err instanceof Error ? err.name : "error" }, "request failed");
      if (!res.headersSent) res.writeHead(500).end("internal error");
    });
  });
  // Closes records abandoned by a stopped instance (this one before a restart, or another).
  const stopReconciler = startReconciler(options.store.db, engineConfig());
  // Spans still in the batch go out before the process ends.
  server.once("close", () => (control?.close(), stopReconciler(), void policy.close(), void stopTracing()));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  return { server, lifecycle };
}

/** While draining: a new MCP session (no session id yet) or the start of a connect flow. */
function startsSomethingNew(req: http.IncomingMessage, path: string, mcpPath: string): boolean {
  if (req.method !== "POST") return false;
  if (path === mcpPath) return req.headers["mcp-session-id"] === undefined;
  return /^\/connect\/[^/]+\/decision$/.test(path) || /^\/setup\/[^/]+\/start$/.test(path);
}

async function answerHealth(
  path: string,
  readiness: () => Promise<{ ready: boolean; checks: Record<string, boolean> }>,
  res: http.ServerResponse,
): Promise<void> {
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  if (path === "/healthz") {
    res.writeHead(200, headers).end(JSON.stringify({ status: "ok" }));
    return;
  }
  const r = await readiness().catch(() => ({ ready: false, checks: {} as Record<string, boolean> }));
  // Check names only: which part is failing, never a message that could describe the database.
  const failing = Object.entries(r.checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  res.writeHead(r.ready ? 200 : 503, headers).end(JSON.stringify(r.ready ? { status: "ready" } : { status: "not_ready", failing }));
}
