// Issue 11 item 6, idle eviction over real HTTP (MCP_SESSION_IDLE_SECONDS=1): a session with no
// request for the idle time is closed (row closed_at set, transport closed so its id answers 404,
// memory released) and its slot under the per-subject cap is free again; a session waiting on a
// person (a tools/call in flight) is not idle.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mcpSessions } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { seedDemo } from "@/lib/demo/seed";
import { liveSessions } from "@/lib/mcp/live-sessions";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { connectClient, type TestClient } from "../helpers/mcp-client";
import { createTestStore, type TestStore } from "../helpers/test-store";

const SETTINGS = { MCP_MAX_SESSIONS_PER_SUBJECT: "2", MCP_SESSION_IDLE_SECONDS: "1" };
let t: TestStore;
let app: TestAppServer;
let resource: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  Object.assign(process.env, SETTINGS);
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 1 });
  app = await startAppServer(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const k of Object.keys(SETTINGS)) delete process.env[k];
  await app?.close();
  await t?.dispose();
});

const token = (subject: string) =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant: "acme", ttlSeconds: 600, mcpResource: resource });
const row = async (id: string) => (await t.store.db.select().from(mcpSessions).where(eq(mcpSessions.id, id)))[0];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function session(tok: string, answer?: Parameters<typeof connectClient>[2]["answer"]): Promise<TestClient> {
  const c = await connectClient(resource, tok, { capabilities: { elicitation: { form: {} } }, answer });
  clients.push(c);
  return c;
}

function rawCall(tok: string, sid: string, id: number) {
  return fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${tok}`,
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }),
  });
}

describe("idle eviction", () => {
  it("closes idle sessions: row closed, transport closed (404 with the id), memory released, cap slot free", async () => {
    const tok = await token(`user-idle-${randomUUID()}`);
    const a = await session(tok);
    const b = await session(tok);
    const ids = [a.transport.sessionId!, b.transport.sessionId!];
    expect(ids.every((id) => liveSessions().has(id))).toBe(true);
    await vi.waitFor(
      async () => {
        for (const id of ids) expect((await row(id))?.closedAt).toBeInstanceOf(Date);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(ids.some((id) => liveSessions().has(id))).toBe(false);
    const res = await rawCall(tok, ids[0]!, 55);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ id: 55, error: { message: "session not found" } });
    // Both slots are free again: two new sessions are admitted.
    const c = await session(tok);
    const d = await session(tok);
    expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await d.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("keeps a session whose tools/call waits on a person, however long, and evicts it once idle after the answer", async () => {
    const tok = await token(`user-busy-${randomUUID()}`);
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const c = await session(tok, async () => {
      await answered;
      return { action: "accept", content: { environment: "staging", format: "csv", from: "2026-10-01", to: "2026-10-31" } };
    });
    const sid = c.transport.sessionId!;
    const call = c.call("generate_report");
    await vi.waitFor(() => expect(c.received).toHaveLength(1), { timeout: 10_000 });
    // Longer than the idle time while the form is open, then a sweep on top of the timer's.
    await sleep(1_500);
    await app.routes.sweepIdleSessions!();
    expect(liveSessions().has(sid)).toBe(true);
    expect((await row(sid))?.closedAt).toBeNull();
    release();
    expect((await call).structured).toMatchObject({ outcome: "completed" });
    await vi.waitFor(async () => expect((await row(sid))?.closedAt).toBeInstanceOf(Date), { timeout: 20_000, interval: 200 });
    expect(liveSessions().has(sid)).toBe(false);
  });
});
