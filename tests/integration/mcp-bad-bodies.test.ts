// Bodies found by the outside re-test to crash /api/mcp: nesting deep enough to overflow the stack
// of whatever walks it recursively, and a client name large enough to overflow the index it is
// stored under. Each gets a clear 4xx or is stored bounded; none is a 500.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { CLIENT_NAME_MAX } from "@/lib/http/observed-text";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
let token = "";
const subject = `user-bad-bodies-${Date.now()}`;

beforeAll(async () => {
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  token = await mintMcpAccessToken(createDevProvider(), {
    subject,
    tenant: "acme",
    ttlSeconds: 600,
    mcpResource: `${app.baseUrl}/api/mcp`,
  });
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const post = (body: string) =>
  fetch(`${app.baseUrl}/api/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });

describe("/api/mcp and hostile bodies", () => {
  it.each([
    ["5,000 nested arrays (10 KB)", "[".repeat(5000) + "]".repeat(5000)],
    [
      "20,000 nested objects inside params",
      `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}`,
    ],
  ])("%s: a clear 400, not a 500", async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/nested deeper than/);
  });

  it("a 500,000-character client name opens a session with the name stored bounded, never a 500", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "n".repeat(500_000), version: "v".repeat(100_000) } },
    };
    const res = await post(JSON.stringify(init));
    expect(res.status).toBe(200);
    await res.body?.cancel();
    const rows = await t.store.db.select().from(mcpSessions).where(eq(mcpSessions.subject, subject));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.clientName).toHaveLength(CLIENT_NAME_MAX);
    expect(rows[0]!.clientVersion.length).toBeLessThanOrEqual(64);
  });
});
