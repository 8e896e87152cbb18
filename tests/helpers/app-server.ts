// An in-process app server with the real routes (development IdP, protected-resource metadata,
// /api/mcp) on a random loopback port, minus Next.js: for integration tests of the MCP endpoint.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { createAppRoutes } from "@/lib/server/app-routes";

export interface TestAppServer {
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Sets APP_URL/DATA_DIR for this process: call once per test file (vitest isolates files). */
export async function startAppServer(db: Db): Promise<TestAppServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-app-"));
  Object.assign(process.env, { APP_URL: baseUrl, PORT: String(port), DATA_DIR: dataDir, APP_ENV: "development" });
  delete process.env.OIDC_ISSUER;
  const routes = createAppRoutes(async () => db);
  server.on("request", (req, res) => {
    routes(req, res)
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
    close: async () => {
      routes.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
