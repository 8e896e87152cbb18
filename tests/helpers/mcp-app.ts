// The setup the MCP integration tests share: a fresh store seeded with the demo, the in-process app
// server on it, and access tokens for its /api/mcp from the development provider. One call at the
// top level of a test file registers the beforeAll/afterAll that build and remove it (vitest gives
// each file its own process, so each file gets its own store and server).
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { seedDemo } from "@/lib/demo/seed";
import { startAppServer, type TestAppServer } from "./app-server";
import { createTestStore, type TestStore } from "./test-store";

export interface McpAppOptions {
  /** How many demo records the seed writes. */
  records: number;
  /**
   * The APP_URL the seed writes into the demo's providers. "server" is the app server's own base
   * URL, so the seed runs after the server starts (URL-mode flows call back to it); an explicit
   * URL or none seeds first and starts the server on the seeded store.
   */
  appUrl?: "server" | `http${string}`;
}

export interface TokenClaims {
  subject: string;
  tenant: string;
  /** One of the development provider's static clients; the provider's default when left out. */
  clientId?: string;
}

export interface McpApp {
  readonly t: TestStore;
  readonly db: Db;
  readonly app: TestAppServer;
  readonly baseUrl: string;
  /** The protected resource: the app's /api/mcp. */
  readonly resource: string;
  /** A ten-minute access token for the resource, as the development provider issues it. */
  token(claims: TokenClaims): Promise<string>;
}

export function useMcpApp(options: McpAppOptions): McpApp {
  let t: TestStore | undefined;
  let app: TestAppServer | undefined;

  beforeAll(async () => {
    t = await createTestStore();
    if (options.appUrl === "server") {
      app = await startAppServer(t.store.db);
      await seedDemo(t.store.db, { records: options.records, appUrl: app.baseUrl });
    } else {
      await seedDemo(t.store.db, { records: options.records, ...(options.appUrl ? { appUrl: options.appUrl } : {}) });
      app = await startAppServer(t.store.db);
    }
  });
  afterAll(async () => {
    await app?.close();
    await t?.dispose();
  });

  // Read only inside hooks and tests: before beforeAll has run there is nothing to read.
  const started = () => {
    if (!t || !app) throw new Error("useMcpApp: the store and server exist only inside tests and hooks, after beforeAll");
    return { t, app };
  };
  const resource = () => `${started().app.baseUrl}/api/mcp`;
  return {
    get t() {
      return started().t;
    },
    get db() {
      return started().t.store.db;
    },
    get app() {
      return started().app;
    },
    get baseUrl() {
      return started().app.baseUrl;
    },
    get resource() {
      return resource();
    },
    token: ({ subject, tenant, clientId }) =>
      mintMcpAccessToken(createDevProvider(), {
        subject,
        tenant,
        ttlSeconds: 600,
        mcpResource: resource(),
        ...(clientId ? { clientId } : {}),
      }),
  };
}
