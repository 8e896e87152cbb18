// The upstream session pool over real HTTP: the app's /api/mcp with real SDK clients, and an SDK
// upstream that records, per request, the session id, the method and the identity assertion it
// got. Proves: a person's calls reuse one upstream session (one initialize, a fresh assertion on
// every request); sessions are never shared between subjects, tenants or OAuth clients; a registry
// change (here or, unseen, on another instance) or removal drops the session (DELETE upstream); a
// failed call drops it; a session the upstream forgot (404) is replaced without failing the call;
// the pool's bound, idle time and maximum age; and two concurrent calls of one person on one
// upstream session, whose upstream elicits in both, each get their own question on their own wire.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { eq, sql } from "drizzle-orm";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { elicitationRecords, upstreams } from "@/db/schema";
import { IDENTITY_HEADER, JWKS_PATH } from "@/lib/gateway/identity-assertion";
import { addUpstream, getUpstream, removeUpstream, updateUpstream } from "@/lib/gateway/registry";
import { UpstreamPool, upstreamPool } from "@/lib/gateway/upstream-pool";
import { useGatewayApp, type PersonOptions } from "../helpers/gateway-app";

process.env.FLOW_NEW_STAGE = "canary:100";
process.env.GATEWAY_UPSTREAM_TIMEOUT_SECONDS = "30";

interface Seen {
  method: string;
  httpMethod: string;
  session: string | undefined;
  assertion: string | undefined;
}

/** An SDK upstream recording every HTTP request; `forget()` drops its sessions (as a restart would). */
async function recordingUpstream() {
  const seen: Seen[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let waiting: Array<() => void> = [];
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      let body: unknown;
      if (req.method === "POST") {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      }
      const sid = req.headers["mcp-session-id"] as string | undefined;
      const assertion = req.headers[IDENTITY_HEADER] as string | undefined;
      seen.push({ method: (body as { method?: string } | undefined)?.method ?? "", httpMethod: req.method!, session: sid, assertion });
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (req.method !== "POST" || sid) return void res.writeHead(404).end();
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        transport.onclose = () => void (transport!.sessionId && transports.delete(transport!.sessionId));
        const server = new McpServer({ name: "pool-upstream", version: "1" });
        server.registerTool("echo", { inputSchema: { note: z.string().optional() } }, async (args) => ({
          content: [{ type: "text", text: `echo ${args.note ?? ""}` }],
        }));
        server.registerTool("fail", { inputSchema: {} }, async () => {
          // Cuts every connection mid-call: a transport error on the gateway's side.
          httpServer.closeAllConnections();
          return { content: [{ type: "text", text: "never seen" }] };
        });
        // Two calls meet here before either elicits, so both are in flight on the session at once.
        server.registerTool("ask", { inputSchema: { field: z.string() } }, async (args, extra) => {
          await new Promise<void>((resolve) => {
            waiting.push(resolve);
            if (waiting.length >= 2) {
              for (const w of waiting) w();
              waiting = [];
            }
          });
          const r = await server.server.request(
            {
              method: "elicitation/create",
              params: {
                message: `Please give ${args.field}`,
                requestedSchema: {
                  type: "object",
                  properties: { [args.field]: { type: "string", maxLength: 40 } },
                  required: [args.field],
                },
              },
            },
            ElicitResultSchema,
            { relatedRequestId: extra.requestId, timeout: 60_000 },
          );
          return { content: [{ type: "text", text: `ask ${args.field}: ${r.action} ${JSON.stringify(r.content ?? {})}` }] };
        });
        await server.connect(transport);
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
  const port = (httpServer.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    /** Forgets every session id (as a restarted upstream would); open streams are left as they are. */
    forget: () => transports.clear(),
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}

const gw = useGatewayApp({ subjectPrefix: "user-pool" });
let up: Awaited<ReturnType<typeof recordingUpstream>>;

const calls = () => up.seen.filter((s) => s.method === "tools/call");
/**
 * Sessions opened for people. The revision probe (upstream-era.ts) opens one short session of its own
 * on first contact and after a failed call, under the gateway's own identity: not a pooled session.
 */
const inits = () => up.seen.filter((s) => s.method === "initialize" && (!s.assertion || decodeJwt(s.assertion).sub !== "gateway"));
const deletes = () => up.seen.filter((s) => s.httpMethod === "DELETE");
const claims = (s: Seen) => decodeJwt(s.assertion!);
/** Waits for the pool's asynchronous close (a DELETE) to reach the upstream: polled, no time limit. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

beforeAll(async () => {
  up = await gw.serve(recordingUpstream());
  await gw.register({
    id: "pool",
    displayName: "Pool",
    url: up.url,
    tenants: ["acme", "globex"],
    exposedTools: ["*"],
  });
}, 60_000);
// Runs before useGatewayApp's afterAll (vitest runs them in reverse), which closes the upstream, the app and the store.
afterAll(async () => {
  await upstreamPool().closeAll();
});
beforeEach(async () => {
  await upstreamPool().closeAll();
});

async function person({ answer, ...who }: PersonOptions & { answer?: (field: string) => string } = {}) {
  const { subject, token } = await gw.person(who);
  const c = await gw.connect("2025-11-25", token, {
    capabilities: { elicitation: { form: {} } },
    answer: (req) => {
      const field = Object.keys((req as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
      return { action: "accept", content: { [field]: answer ? answer(field) : "x" } };
    },
  });
  return { c, subject, token };
}

describe("reuse", () => {
  it("one person's calls share one upstream session (one initialize) with a fresh, valid assertion on every request", async () => {
    const { c, subject } = await person();
    const before = { calls: calls().length, inits: inits().length };
    for (const note of ["one", "two", "three"]) expect((await c.call("pool__echo", { note })).text).toBe(`echo ${note}`);
    const mine = calls().slice(before.calls);
    expect(mine).toHaveLength(3);
    expect(inits().length - before.inits).toBe(1);
    expect(new Set(mine.map((s) => s.session)).size).toBe(1);
    expect(mine[0]!.session).toMatch(/^[0-9a-f-]{36}$/);
    // Each request carries its own assertion (its own jti), all naming this person and this upstream.
    const jwks = createRemoteJWKSet(new URL(`${gw.app.baseUrl}${JWKS_PATH}`));
    const verified = await Promise.all(mine.map((s) => jwtVerify(s.assertion!, jwks, { audience: "pool", issuer: gw.app.baseUrl })));
    expect(verified.map((v) => v.payload.sub)).toEqual([subject, subject, subject]);
    expect(new Set(verified.map((v) => v.payload.jti)).size).toBe(3);
    expect(upstreamPool().stats().byUpstream.pool).toBe(1);
    await c.close();
  }, 60_000);
});

describe("never shared", () => {
  it("between subjects, between tenants and between OAuth clients of the same person", async () => {
    const subject = `user-pool-shared-${Date.now()}`;
    const people = [
      await person({ subject, tenant: "acme" }),
      await person({ tenant: "acme" }),
      await person({ subject, tenant: "globex" }),
      await person({ subject, tenant: "acme", clientId: "claude-code" }),
    ];
    const before = calls().length;
    for (const p of people) await p.c.call("pool__echo", { note: "x" });
    for (const p of people) await p.c.call("pool__echo", { note: "y" });
    const mine = calls().slice(before);
    const sessions = mine.slice(0, 4).map((s) => s.session);
    expect(new Set(sessions).size).toBe(4);
    // The second round reuses each one's own session, and each assertion names its own person.
    expect(mine.slice(4).map((s) => s.session)).toEqual(sessions);
    expect(mine.slice(0, 4).map((s) => [claims(s).sub, claims(s).tenant])).toEqual(
      people.map((p, i) => [p.subject, i === 2 ? "globex" : "acme"]),
    );
    expect(claims(mine[3]!).client_id).toBe("claude-code");
    expect(claims(mine[0]!).client_id).not.toBe("claude-code");
    for (const p of people) await p.c.close();
  }, 60_000);
});

describe("eviction", () => {
  it("a registry change on this instance closes the session (DELETE) and the next call opens a new one", async () => {
    const { c } = await person();
    await c.call("pool__echo");
    const first = calls().at(-1)!.session;
    await updateUpstream(gw.db, "op-admin-0001", { id: "pool", urlOrigins: ["https://example.com"] });
    await until(() => deletes().some((d) => d.session === first));
    await c.call("pool__echo");
    expect(calls().at(-1)!.session).not.toBe(first);
    await c.close();
  }, 60_000);

  it("a change made elsewhere (another instance, psql) is noticed at the next call: the old session is not used", async () => {
    const { c } = await person();
    await c.call("pool__echo");
    const first = calls().at(-1)!.session;
    // No event reaches this instance's pool: only the row read at call time differs.
    await gw.db
      .update(upstreams)
      .set({ exposedTools: ["echo", "ask", "fail"] })
      .where(eq(upstreams.id, "pool"));
    await c.call("pool__echo");
    expect(calls().at(-1)!.session).not.toBe(first);
    await until(() => deletes().some((d) => d.session === first));
    await gw.db
      .update(upstreams)
      .set({ exposedTools: ["*"] })
      .where(eq(upstreams.id, "pool"));
    await c.close();
  }, 60_000);

  it("removing a tenant from the upstream closes that tenant's sessions, and its next call reaches nothing", async () => {
    const { c } = await person({ tenant: "globex" });
    await c.call("pool__echo");
    const session = calls().at(-1)!.session;
    await updateUpstream(gw.db, "op-admin-0001", { id: "pool", tenants: ["acme"] });
    await until(() => deletes().some((d) => d.session === session));
    const before = calls().length;
    await expect(c.call("pool__echo")).rejects.toThrow(/not found/);
    expect(calls().length).toBe(before);
    await updateUpstream(gw.db, "op-admin-0001", { id: "pool", tenants: ["acme", "globex"] });
    await c.close();
  }, 60_000);

  it("removing the upstream closes its sessions", async () => {
    const { c } = await person();
    await c.call("pool__echo");
    const session = calls().at(-1)!.session;
    const row = (await getUpstream(gw.db, "pool"))!;
    await removeUpstream(gw.db, "op-admin-0001", { id: "pool" });
    await until(() => deletes().some((d) => d.session === session));
    expect(upstreamPool().stats().byUpstream.pool).toBeUndefined();
    await addUpstream(gw.db, "op-admin-0001", {
      id: "pool",
      displayName: row.displayName,
      url: row.url,
      tenants: row.tenants,
      exposedTools: row.exposedTools,
    });
    await c.close();
  }, 60_000);

  it("a transport error fails the call clearly and drops the session; the next call opens a new one", async () => {
    const { c } = await person();
    await c.call("pool__echo");
    const first = calls().at(-1)!.session;
    const r = await c.call("pool__fail");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Not done: upstream Pool (pool) failed");
    expect(upstreamPool().stats().byUpstream.pool ?? 0).toBe(0);
    const before = inits().length;
    expect((await c.call("pool__echo", { note: "again" })).text).toBe("echo again");
    expect(inits().length).toBe(before + 1);
    expect(calls().at(-1)!.session).not.toBe(first);
    await c.close();
  }, 60_000);

  it("a session the upstream forgot (404) is replaced once, and the call still succeeds", async () => {
    const { c } = await person();
    await c.call("pool__echo");
    const first = calls().at(-1)!.session;
    up.forget();
    expect((await c.call("pool__echo", { note: "after restart" })).text).toBe("echo after restart");
    const last = calls().at(-1)!;
    expect(last.session).not.toBe(first);
    // The stale attempt reached the upstream only as a 404 on the old session, never as a tool run.
    expect(calls().filter((s) => s.session === first)).toHaveLength(2);
    await c.close();
  }, 60_000);
});

describe("bounds", () => {
  it("the pool holds at most maxSessions, closes the least recently used idle one, and closes idle and too-old sessions on its sweep", async () => {
    let now = 1_000_000;
    const pool = new UpstreamPool(
      () => ({ maxSessions: 2, idleMs: 60_000, maxAgeMs: 300_000 }),
      () => now,
    );
    const row = (await getUpstream(gw.db, "pool"))!;
    const who = (s: string) => ({ subject: s, tenant: "acme", upstreamId: "pool", clientId: "" });
    const use = async (s: string) => {
      const lease = await pool.acquire(row, who(s), {});
      await lease.run(() => lease.client.callTool({ name: "echo", arguments: {} }));
      await lease.release();
      now += 1000;
      return lease.reused;
    };
    expect(await use("a")).toBe(false);
    expect(await use("b")).toBe(false);
    expect(await use("a")).toBe(true);
    // Full: c evicts b (least recently used), a stays.
    expect(await use("c")).toBe(false);
    expect(pool.stats().open).toBe(2);
    expect(await use("a")).toBe(true);
    expect(await use("b")).toBe(false);
    // A call in flight keeps its session through a sweep; idle ones go.
    const busy = await pool.acquire(row, who("b"), {});
    now += 61_000;
    pool.sweep();
    await until(() => pool.stats().open === 1);
    expect(pool.stats().inFlight).toBe(1);
    await busy.release();
    // Too old: not handed out again, closed when released.
    now += 300_000;
    const old = await pool.acquire(row, who("b"), {});
    expect(old.reused).toBe(false);
    await old.release();
    await pool.closeAll();
    expect(pool.stats().open).toBe(0);
  }, 60_000);

  it("turning pooling off (maxSessions 0) stops handing out a session that is already pooled", async () => {
    let max = 4;
    const pool = new UpstreamPool(() => ({ maxSessions: max, idleMs: 60_000, maxAgeMs: 300_000 }));
    const row = (await getUpstream(gw.db, "pool"))!;
    const who = { subject: "y", tenant: "acme", upstreamId: "pool", clientId: "" };
    await (await pool.acquire(row, who, {})).release();
    expect(pool.stats().open).toBe(1);
    max = 0;
    const lease = await pool.acquire(row, who, {});
    expect(lease.reused).toBe(false);
    await lease.release();
    await until(() => pool.stats().open === 0);
  }, 60_000);

  it("with maxSessions 0 every call opens and closes its own session", async () => {
    const pool = new UpstreamPool(() => ({ maxSessions: 0, idleMs: 60_000, maxAgeMs: 300_000 }));
    const row = (await getUpstream(gw.db, "pool"))!;
    for (let i = 0; i < 2; i++) {
      const lease = await pool.acquire(row, { subject: "z", tenant: "acme", upstreamId: "pool", clientId: "" }, {});
      expect(lease.reused).toBe(false);
      await lease.release();
      expect(pool.stats().open).toBe(0);
    }
  }, 60_000);
});

describe("concurrent calls on one pooled session", () => {
  it("each elicitation reaches the call (and the client session) it belongs to", async () => {
    const subject = `user-pool-concurrent-${Date.now()}`;
    // Two client sessions of the same person and OAuth client: one upstream session in the pool.
    const a = await person({ subject, answer: (f) => `answer-for-${f}` });
    const b = await person({ subject, answer: (f) => `answer-for-${f}` });
    await a.c.call("pool__echo"); // opens the pooled session first, so both calls share it
    const before = calls().length;
    const [ra, rb] = await Promise.all([a.c.call("pool__ask", { field: "alpha" }), b.c.call("pool__ask", { field: "bravo" })]);
    expect(ra.text).toBe('ask alpha: accept {"alpha":"answer-for-alpha"}');
    expect(rb.text).toBe('ask bravo: accept {"bravo":"answer-for-bravo"}');
    const mine = calls().slice(before);
    expect(mine).toHaveLength(2);
    expect(mine[0]!.session).toBe(mine[1]!.session);
    // The form for alpha was shown only to client a, bravo's only to client b.
    expect(a.c.received.map((r) => Object.keys((r as { requestedSchema: { properties: object } }).requestedSchema.properties))).toEqual([
      ["alpha"],
    ]);
    expect(b.c.received.map((r) => Object.keys((r as { requestedSchema: { properties: object } }).requestedSchema.properties))).toEqual([
      ["bravo"],
    ]);
    // And each record names its own downstream call.
    const rows = await gw.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));
    const byField = Object.fromEntries(rows.map((r) => [r.fieldNames[0], r]));
    expect(byField.alpha).toMatchObject({ state: "completed", upstreamId: "pool", requestId: String(a.c.toolCallIds.at(-1)) });
    expect(byField.bravo).toMatchObject({ state: "completed", upstreamId: "pool", requestId: String(b.c.toolCallIds.at(-1)) });
    // No answer is stored anywhere in the records.
    const dump = JSON.stringify(await gw.db.execute(sql`select * from elicitation_records where subject = ${subject}`));
    expect(dump).not.toContain("answer-for-");
    await a.c.close();
    await b.c.close();
  }, 60_000);
});
