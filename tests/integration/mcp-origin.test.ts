// Issue 11 item 3, over real HTTP: /api/mcp refuses every Origin but APP_URL's and the configured
// ones with 403 (before the token is even looked at, so the answer is the same whatever token is
// sent) and changes nothing; JSON-RPC errors carry the request's id whenever it could be read.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions } from "@/db/schema";
import { parseOriginList } from "@/lib/abuse/config";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { createTestStore, type TestStore } from "../helpers/test-store";

const CONFIGURED = "https://ide.example.com";
let t: TestStore;
let app: TestAppServer;
let resource: string;
let port: number;

beforeAll(async () => {
  process.env.MCP_ALLOWED_ORIGINS = `${CONFIGURED}, http://127.0.0.1:9`;
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
  port = Number(new URL(app.baseUrl).port);
});
afterAll(async () => {
  delete process.env.MCP_ALLOWED_ORIGINS;
  await app?.close();
  await t?.dispose();
});

const token = (subject = "user-alice-1001", tenant = "acme") =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant, ttlSeconds: 300, mcpResource: resource });
const sessionRows = async () => (await t.store.db.select({ n: count() }).from(mcpSessions))[0]!.n;
const initialize = (id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "origin-test", version: "1" } },
});

function post(body: unknown, headers: Record<string, string | undefined>) {
  const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return fetch(resource, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...clean },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("/api/mcp Origin validation", () => {
  const foreign = () => [
    ["a foreign site", "http://evil.example.com"],
    ["the opaque origin null", "null"],
    ["the same host on another port", `http://localhost:${port + 1}`],
    ["the same port under another host name", `http://127.0.0.1:${port}`],
    ["the same host over https", `https://localhost:${port}`],
    ["APP_URL with a trailing slash", `${app.baseUrl}/`],
    ["APP_URL upper-cased", app.baseUrl.toUpperCase()],
    ["a configured origin's subdomain", "https://evil.ide.example.com"],
    ["an empty Origin", ""],
  ];

  it("refuses each foreign origin with 403 and a JSON-RPC error carrying the id, even with a valid token, and records no session", async () => {
    const before = await sessionRows();
    const valid = await token();
    for (const [name, origin] of foreign()) {
      const res = await post(initialize(`init-${name}`), { origin, authorization: `Bearer ${valid}` });
      expect(res.status, name).toBe(403);
      expect(await res.json(), name).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "forbidden: requests from this origin are not allowed" },
        id: `init-${name}`,
      });
      expect(res.headers.get("mcp-session-id"), name).toBeNull();
    }
    expect(await sessionRows()).toBe(before);
  });

  it("refuses a request carrying two Origin headers, even when one is allowed", async () => {
    const http = await import("node:http");
    const valid = await token();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        resource,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${valid}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.setHeader("origin", [app.baseUrl, "http://evil.example.com"]);
      req.on("error", reject);
      req.end(JSON.stringify(initialize()));
    });
    expect(status).toBe(403);
  });

  it("gives a foreign origin the same answer with a valid, a forged or no token (no token oracle)", async () => {
    const answers = await Promise.all(
      [`Bearer ${await token()}`, "Bearer not-a-jwt", undefined].map(async (authorization) => {
        const res = await post(initialize(5), { origin: "http://evil.example.com", authorization });
        return { status: res.status, body: await res.text(), challenge: res.headers.get("www-authenticate") };
      }),
    );
    expect(answers[0]).toMatchObject({ status: 403, challenge: null });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("refuses a foreign origin on an existing session too (GET stream, DELETE, POST) and leaves the session open", async () => {
    const valid = await token();
    const client = new Client({ name: "owner", version: "1" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${valid}` } },
    });
    await client.connect(transport);
    const sid = transport.sessionId!;
    const common = {
      authorization: `Bearer ${valid}`,
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-11-25",
      origin: "http://evil.example.com",
      accept: "application/json, text/event-stream",
    };
    expect((await fetch(resource, { method: "DELETE", headers: common })).status).toBe(403);
    expect((await fetch(resource, { method: "GET", headers: common })).status).toBe(403);
    const call = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, common);
    expect(call.status).toBe(403);
    expect((await call.json()).id).toBe(3);
    const [row] = await t.store.db
      .select()
      .from(mcpSessions)
      .where((await import("drizzle-orm")).eq(mcpSessions.id, sid));
    expect(row?.closedAt).toBeNull();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it("serves APP_URL's own origin, each configured origin, and clients that send no Origin", async () => {
    for (const origin of [app.baseUrl, CONFIGURED, "http://127.0.0.1:9", undefined]) {
      const before = await sessionRows();
      const res = await post(initialize(), { origin, authorization: `Bearer ${await token()}` });
      expect(res.status, String(origin)).toBe(200);
      expect(res.headers.get("mcp-session-id"), String(origin)).toMatch(/^[0-9a-f-]{36}$/);
      expect(await sessionRows()).toBe(before + 1);
      await res.body?.cancel();
    }
  });
});

describe("MCP_ALLOWED_ORIGINS validation", () => {
  it("accepts exact origins and refuses anything else, naming the variable", () => {
    expect(parseOriginList("MCP_ALLOWED_ORIGINS", " https://a.example.com ,http://localhost:8080")).toEqual([
      "https://a.example.com",
      "http://localhost:8080",
    ]);
    expect(parseOriginList("MCP_ALLOWED_ORIGINS", undefined)).toEqual([]);
    for (const bad of [
      "*",
      "https://*.example.com",
      "https://a.example.com/",
      "https://a.example.com/path",
      "a.example.com",
      "ftp://a.example.com",
      "null",
      "https://user@a.example.com",
      "https://a.example.com:443",
      "",
      "https://A.example.com",
    ]) {
      expect(() => parseOriginList("MCP_ALLOWED_ORIGINS", `https://ok.example.com,${bad}`), bad).toThrow(/MCP_ALLOWED_ORIGINS/);
    }
  });
});

describe("JSON-RPC errors carry the request id", () => {
  const withSession = async () => {
    const valid = await token();
    const client = new Client({ name: "ids", version: "1" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${valid}` } },
    });
    await client.connect(transport);
    return { client, sid: transport.sessionId!, valid };
  };

  it("401 (no token, bad token) echoes numeric and string ids", async () => {
    for (const [id, authorization] of [
      [41, undefined],
      ["req-42", "Bearer garbage"],
      [0, undefined],
    ] as const) {
      const res = await post({ jsonrpc: "2.0", id, method: "tools/list" }, { authorization });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
      expect((await res.json()).id).toBe(id);
    }
  });

  it("404 session not found echoes the id, for an unknown session and for another user's session", async () => {
    const { client, sid } = await withSession();
    for (const [session, who] of [
      ["00000000-0000-4000-8000-000000000000", await token()],
      [sid, await token("user-bob-1002")],
    ] as const) {
      const res = await post(
        { jsonrpc: "2.0", id: "lookup-7", method: "tools/list" },
        { authorization: `Bearer ${who}`, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ jsonrpc: "2.0", error: { code: -32001, message: "session not found" }, id: "lookup-7" });
    }
    await client.close();
  });

  it("400 no session echoes the id; a notification (no id) and invalid ids answer null", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const cases: Array<[unknown, unknown]> = [
      [{ jsonrpc: "2.0", id: 12, method: "tools/list" }, 12],
      [{ jsonrpc: "2.0", method: "notifications/initialized" }, null],
      [{ jsonrpc: "2.0", id: { nested: 1 }, method: "tools/list" }, null],
      [{ jsonrpc: "2.0", id: [1], method: "tools/list" }, null],
      [{ jsonrpc: "2.0", id: true, method: "tools/list" }, null],
      [JSON.parse('{"jsonrpc":"2.0","method":"tools/list","__proto__":{"id":99}}'), null],
      [{ jsonrpc: "2.0", method: "tools/list", constructor: { id: 5 } }, null],
    ];
    for (const [body, id] of cases) {
      const res = await post(body, auth);
      expect(res.status).toBe(400);
      const answer = await res.json();
      // A valid message without a session is told to initialize; a message whose id is not a JSON-RPC
      // id is not a valid message at all (both eras' readers say so). Either way: -32600, id null.
      const message =
        id === null
          ? /^(no session: send initialize first|Bad Request: the request body is not a valid JSON-RPC message)$/
          : /^no session: send initialize first$/;
      expect(answer, JSON.stringify(body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: expect.stringMatching(message) },
        id,
      });
    }
  });

  it("a JSON-RPC batch is refused whole (400, -32600, id null) before the token is even looked at: neither revision has batching", async () => {
    for (const auth of [{}, { authorization: `Bearer ${await token()}` }]) {
      for (const batch of [
        [
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: "b", method: "tools/list" },
        ],
        [],
        [initialize(5)],
      ]) {
        const before = await sessionRows();
        const res = await post(batch, auth);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          jsonrpc: "2.0",
          error: { code: -32600, message: "invalid request: batching is not supported; send one JSON-RPC message per HTTP request" },
          id: null,
        });
        expect(await sessionRows()).toBe(before);
      }
    }
  });

  it("a body too large (413) or not JSON (400) answers id null: the id could not be read, and nothing is recorded", async () => {
    const before = await sessionRows();
    const huge = JSON.stringify({ ...initialize(77), pad: "x".repeat(1024 * 1024 + 10) });
    const big = await post(huge, { authorization: `Bearer ${await token()}` });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: -32600 }, id: null });
    const broken = await post('{"jsonrpc":"2.0","id":78,', { authorization: `Bearer ${await token()}` });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 }, id: null });
    expect(await sessionRows()).toBe(before);
  });
});
