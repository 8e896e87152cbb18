// An in-process app server with the real routes (development IdP, protected-resource metadata,
// /api/mcp) on a random loopback port, minus Next.js: for integration tests of the MCP endpoint.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { createAppRoutes, type RouteHandler } from "@/lib/server/app-routes";

export interface TestAppServer {
  baseUrl: string;
  routes: ReturnType<typeof createAppRoutes>;
  dataDir: string;
  close(): Promise<void>;
}

export interface AppServerOptions {
  /** Use this data directory (e.g. one holding the embedded store) instead of a new one. */
  dataDir?: string;
  /** Listen on this port (e.g. the port of a server that was just closed: a restart). */
  port?: number;
  /** Routes answered before the app's own, given the server's base URL (e.g. the control channel). */
  before?: (baseUrl: string) => RouteHandler;
}

/** Sets APP_URL/DATA_DIR for this process: call once per test file (vitest isolates files). */
export async function startAppServer(db: Db, options: AppServerOptions = {}): Promise<TestAppServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const baseUrl = `http://localhost:${port}`;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "eg-app-"));
  Object.assign(process.env, { APP_URL: baseUrl, PORT: String(port), DATA_DIR: dataDir, APP_ENV: "development" });
  delete process.env.OIDC_ISSUER;
  const appRoutes = createAppRoutes(async () => db);
  const first = options.before?.(baseUrl);
  const handle: RouteHandler = async (req, res) => (first && (await first(req, res))) || appRoutes(req, res);
  server.on("request", (req, res) => {
    handle(req, res)
      .then((done) => {
        if (!done) res.writeHead(404).end();
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  return {
    baseUrl,
    dataDir,
    // The app's own routes (with their sweep and close hooks), not the wrapper in front of them.
    routes: appRoutes,
    close: async () => {
      appRoutes.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A directory the caller gave is the caller's to remove (it may outlive this server).
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app instance on the same store (another "process" as far as the routes know: its own
 * endpoint, limiter and sweeper), configured by the current environment plus `env` while it is
 * created. APP_URL stays the first server's, so the same tokens are valid on both.
 */
export async function startExtraInstance(
  db: Db,
  env: Record<string, string | undefined> = {},
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  let routes: ReturnType<typeof createAppRoutes>;
  try {
    routes = createAppRoutes(async () => db);
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  const server = http.createServer((req, res) => {
    routes(req, res)
      .then((done) => {
        if (!done) res.writeHead(404).end();
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      routes.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
