// The setup the gateway integration tests share: a fresh store, the in-process app server on it,
// the upstream servers a file starts (closed after its tests, in the order they were started),
// their registration by the demo admin, and people of a tenant with tokens for /api/mcp and
// clients of either revision. One call at the top level of a test file registers the
// beforeAll/afterAll that build and remove it (as useMcpApp does for the MCP tests); the file's own
// beforeAll, registered after it, runs after it and starts and registers its upstreams.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/db/client";
import { elicitationRecords } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { addUpstream } from "@/lib/gateway/registry";
import { startAppServer, type TestAppServer } from "./app-server";
import { connectClient, type TestClient } from "./mcp-client";
import { connectV2Client, type V2TestClient } from "./mcp-client-v2";
import { createTestStore, type TestStore } from "./test-store";

export type Revision = "2025-11-25" | "2026-07-28";
/** What a scripted person answers to one elicitation (the form's content is checked by the gateway, not here). */
export type Reply = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
export type Answerer = (params: Record<string, unknown>) => Reply | Promise<Reply>;

export interface PersonOptions {
  tenant?: string;
  /** One of the development provider's static clients; the provider's default when left out. */
  clientId?: string;
  /** A chosen subject (e.g. the same person twice); a new one per call when left out. */
  subject?: string;
  /** The token's lifetime: ten minutes unless a test moves the clock further. */
  ttlSeconds?: number;
}

export interface ConnectOptions {
  capabilities: Record<string, unknown>;
  /** Left out: the client throws on any elicitation it receives. */
  answer?: Answerer;
}

export interface GatewayApp {
  readonly t: TestStore;
  readonly db: Db;
  readonly app: TestAppServer;
  /** The protected resource: the app's /api/mcp. */
  readonly resource: string;
  /** Starts an upstream server that is closed after the file's tests; returns it. */
  serve<U extends { close(): Promise<void> }>(starting: Promise<U>): Promise<U>;
  /** Registers upstreams as the demo admin, each audited as any registry change. */
  register(...upstreams: Array<Parameters<typeof addUpstream>[2]>): Promise<void>;
  /** A new person of a tenant ("acme" unless named) with an access token for the resource. */
  person(options?: PersonOptions): Promise<{ subject: string; token: string }>;
  /** A real SDK client of the revision: the v1 client for 2025-11-25, the v2 client pinned to 2026-07-28. */
  connect(revision: "2025-11-25", token: string, options: ConnectOptions): Promise<TestClient>;
  connect(revision: "2026-07-28", token: string, options: ConnectOptions): Promise<V2TestClient>;
  connect(revision: Revision, token: string, options: ConnectOptions): Promise<TestClient | V2TestClient>;
  /** The elicitation records of one subject. */
  recordsOf(subject: string): Promise<Array<typeof elicitationRecords.$inferSelect>>;
}

/** `subjectPrefix` names the file's people (e.g. "user-hostile"), so its records are told apart. */
export function useGatewayApp(options: { subjectPrefix: string }): GatewayApp {
  let t: TestStore | undefined;
  let app: TestAppServer | undefined;
  const servers: Array<{ close(): Promise<void> }> = [];
  let n = 0;

  beforeAll(async () => {
    t = await createTestStore();
    app = await startAppServer(t.store.db);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await app?.close();
    await t?.dispose();
  });

  // Read only inside hooks and tests: before beforeAll has run there is nothing to read.
  const started = () => {
    if (!t || !app) throw new Error("useGatewayApp: the store and server exist only inside tests and hooks, after beforeAll");
    return { t, app };
  };
  const db = () => started().t.store.db;
  const resource = () => `${started().app.baseUrl}/api/mcp`;
  function connect(revision: "2025-11-25", token: string, options: ConnectOptions): Promise<TestClient>;
  function connect(revision: "2026-07-28", token: string, options: ConnectOptions): Promise<V2TestClient>;
  function connect(revision: Revision, token: string, options: ConnectOptions): Promise<TestClient | V2TestClient>;
  function connect(revision: Revision, token: string, { capabilities, answer }: ConnectOptions): Promise<TestClient | V2TestClient> {
    // Both SDKs type the handler's params and result precisely; the scripts here read and answer loosely.
    const reply = answer && ((p: unknown) => answer(p as Record<string, unknown>) as never);
    return revision === "2025-11-25"
      ? connectClient(resource(), token, { capabilities, answer: reply })
      : connectV2Client(resource(), token, { mode: "pin", capabilities, answer: reply });
  }
  return {
    get t() {
      return started().t;
    },
    get db() {
      return db();
    },
    get app() {
      return started().app;
    },
    get resource() {
      return resource();
    },
    async serve(starting) {
      const server = await starting;
      servers.push(server);
      return server;
    },
    async register(...upstreams) {
      for (const upstream of upstreams) await addUpstream(db(), "op-admin-0001", upstream);
    },
    async person({ tenant = "acme", clientId, subject, ttlSeconds = 600 } = {}) {
      const who = subject ?? `${options.subjectPrefix}-${++n}-${Date.now()}`;
      const token = await mintMcpAccessToken(createDevProvider(), {
        subject: who,
        tenant,
        ttlSeconds,
        mcpResource: resource(),
        ...(clientId ? { clientId } : {}),
      });
      return { subject: who, token };
    },
    connect,
    recordsOf: (subject) => db().select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject)),
  };
}
