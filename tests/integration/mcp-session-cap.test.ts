// Issue 11 item 6, the per-subject cap on open MCP sessions, over real HTTP: a subject holds at
// most MCP_MAX_SESSIONS_PER_SUBJECT open sessions across instances; one more initialize is a 429
// with Retry-After that records nothing; ending a session (DELETE) frees its slot; concurrent
// initializes cannot overshoot; other subjects (and the same subject in another tenant) are not
// affected.
import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { liveSessions } from "@/lib/mcp/live-sessions";
import { startAppServer, startExtraInstance, type TestAppServer } from "../helpers/app-server";
import { connectClient, type TestClient } from "../helpers/mcp-client";
import { createTestStore, type TestStore } from "../helpers/test-store";

const SETTINGS = { MCP_MAX_SESSIONS_PER_SUBJECT: "3", MCP_SESSION_IDLE_SECONDS: "3600" };
let t: TestStore;
let app: TestAppServer;
let second: { baseUrl: string; close(): Promise<void> };
let resource: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  Object.assign(process.env, SETTINGS);
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  second = await startExtraInstance(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const k of Object.keys(SETTINGS)) delete process.env[k];
  await second?.close();
  await app?.close();
  await t?.dispose();
});

const token = (subject: string, tenant = "acme") =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant, ttlSeconds: 600, mcpResource: resource });
const open = async (subject: string, tenant = "acme") =>
  (
    await t.store.db
      .select()
      .from(mcpSessions)
      .where(and(eq(mcpSessions.subject, subject), eq(mcpSessions.tenantId, tenant), isNull(mcpSessions.closedAt)))
  ).length;
const rows = async (subject: string) => (await t.store.db.select().from(mcpSessions).where(eq(mcpSessions.subject, subject))).length;

async function session(base: string, tok: string): Promise<TestClient> {
  const c = await connectClient(`${base}/api/mcp`, tok, { capabilities: {} });
  clients.push(c);
  return c;
}

function initialize(base: string, tok: string, id: unknown = "init") {
  return fetch(`${base}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${tok}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cap-test", version: "1" } },
    }),
  });
}

describe("per-subject session cap", () => {
  it("refuses the 4th session with 429, Retry-After and a clear JSON-RPC error; nothing is recorded or kept in memory", async () => {
    const subject = `user-cap-${randomUUID()}`;
    const tok = await token(subject);
    for (let i = 0; i < 3; i++) await session(app.baseUrl, tok);
    const live = liveSessions().size;
    const res = await initialize(app.baseUrl, tok, "fourth");
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: "fourth", error: { code: -32000 } });
    expect(body.error.message).toMatch(
      /too many open sessions: this account already has 3 \(the limit\); close one \(HTTP DELETE\) or retry after \d+ s/,
    );
    expect(await rows(subject)).toBe(3);
    expect(liveSessions().size).toBe(live);
  });

  it("counts sessions on every instance sharing the store", async () => {
    const subject = `user-cap-two-${randomUUID()}`;
    const tok = await token(subject);
    await session(app.baseUrl, tok);
    await session(second.baseUrl, tok);
    await session(app.baseUrl, tok);
    expect((await initialize(second.baseUrl, tok)).status).toBe(429);
    expect((await initialize(app.baseUrl, tok)).status).toBe(429);
    expect(await open(subject)).toBe(3);
  });

  it("frees a slot when the client ends a session (DELETE): row closed, memory released", async () => {
    const subject = `user-cap-delete-${randomUUID()}`;
    const tok = await token(subject);
    const first = await session(app.baseUrl, tok);
    await session(app.baseUrl, tok);
    await session(app.baseUrl, tok);
    const sid = first.transport.sessionId!;
    await first.transport.terminateSession();
    const [row] = await t.store.db.select().from(mcpSessions).where(eq(mcpSessions.id, sid));
    expect(row?.closedAt).toBeInstanceOf(Date);
    expect(liveSessions().has(sid)).toBe(false);
    const again = await initialize(app.baseUrl, tok);
    expect(again.status).toBe(200);
    await again.body?.cancel();
    expect(await open(subject)).toBe(3);
  });

  it("never lets concurrent initializes overshoot the cap", async () => {
    const subject = `user-cap-race-${randomUUID()}`;
    const tok = await token(subject);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => initialize(i % 2 ? second.baseUrl : app.baseUrl, tok, i)));
    const statuses = answers.map((r) => r.status).sort();
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await rows(subject)).toBe(3);
  });

  it("does not block another subject, or the same subject in another tenant", async () => {
    const subject = `user-cap-full-${randomUUID()}`;
    const tok = await token(subject);
    for (let i = 0; i < 3; i++) await session(app.baseUrl, tok);
    expect((await initialize(app.baseUrl, tok)).status).toBe(429);
    const other = await session(app.baseUrl, await token(`user-cap-other-${randomUUID()}`));
    expect((await other.client.listTools()).tools.length).toBeGreaterThan(0);
    const otherTenant = await session(app.baseUrl, await token(subject, "globex"));
    expect((await otherTenant.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(await open(subject, "globex")).toBe(1);
    // The subject's existing sessions keep working at the cap.
    expect((await clients.at(-3)!.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("an initialize with headers the transport refuses leaves no session row behind, and its error carries the id", async () => {
    const subject = `user-cap-406-${randomUUID()}`;
    const tok = await token(subject);
    for (const [status, headers] of [
      [406, { "content-type": "application/json", accept: "application/json" }],
      [406, { "content-type": "application/json" }],
      [415, { "content-type": "text/plain", accept: "application/json, text/event-stream" }],
    ] as const) {
      const res = await fetch(`${app.baseUrl}/api/mcp`, {
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${tok}` },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: "h",
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      });
      expect(res.status).toBe(status);
      expect((await res.json()).id).toBe("h");
      expect(await rows(subject)).toBe(0);
    }
  });
});
