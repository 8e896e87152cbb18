// Issue 11 item 6, rate limits over real HTTP: /api/mcp per subject and per client address, the
// connect routes per address and per signed-in subject; each answers 429 with Retry-After and a
// clear message, counts in the store so two instances on one store share one limit, and never
// blocks another subject. Small limits; each test uses its own addresses (TRUST_PROXY=true and
// X-Forwarded-For) and subjects, so no test depends on another.
import { randomUUID } from "node:crypto";
import { count } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpSessions, rateLimits } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { startAppServer, startExtraInstance, type TestAppServer } from "../helpers/app-server";
import { createTestStore, type TestStore } from "../helpers/test-store";

const LIMITS = {
  MCP_RATE_LIMIT_PER_SUBJECT: "5",
  MCP_RATE_LIMIT_PER_ADDRESS: "8",
  CONNECT_RATE_LIMIT_PER_SUBJECT: "4",
  CONNECT_RATE_LIMIT_PER_ADDRESS: "6",
  TRUST_PROXY: "true",
};
let t: TestStore;
let app: TestAppServer;
let second: { baseUrl: string; close(): Promise<void> };
let resource: string;

beforeAll(async () => {
  Object.assign(process.env, LIMITS);
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  second = await startExtraInstance(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
});
afterAll(async () => {
  for (const k of Object.keys(LIMITS)) delete process.env[k];
  await second?.close();
  await app?.close();
  await t?.dispose();
});

let n = 0;
/** A fresh client address per call site: 10.x.y.z. */
const address = () => `10.9.${Math.floor(++n / 250)}.${n % 250}`;
const token = (subject: string) =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant: "acme", ttlSeconds: 300, mcpResource: resource });

function mcp(base: string, opts: { ip: string; token?: string; id?: number | string; body?: unknown }) {
  return fetch(`${base}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-forwarded-for": `203.0.113.7, ${opts.ip}`,
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: JSON.stringify(opts.body ?? { jsonrpc: "2.0", id: opts.id ?? 1, method: "tools/list" }),
  });
}

describe("/api/mcp rate limits", () => {
  it("limits one subject across addresses: the 6th request is a 429 with Retry-After and a JSON-RPC error carrying its id", async () => {
    const subject = `user-flood-${randomUUID()}`;
    const tok = await token(subject);
    for (let i = 0; i < 5; i++) expect((await mcp(app.baseUrl, { ip: address(), token: tok })).status).toBe(400); // no session: counted, served
    const res = await mcp(app.baseUrl, { ip: address(), token: tok, id: "over-1" });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: `rate limit exceeded: too many MCP requests from this account; retry after ${retryAfter} s` },
      id: "over-1",
    });
  });

  it("a client's answers to the server's own requests (JSON-RPC responses) are not refused for the subject's rate, and do not use it up", async () => {
    const subject = `user-answers-${randomUUID()}`;
    const tok = await token(subject);
    const answer = (id: number) => ({ jsonrpc: "2.0", id, result: { action: "decline" } });
    for (let i = 0; i < 8; i++) expect((await mcp(app.baseUrl, { ip: address(), token: tok, body: answer(i) })).status).not.toBe(429);
    for (let i = 0; i < 5; i++) expect((await mcp(app.baseUrl, { ip: address(), token: tok })).status).toBe(400); // the full allowance is still there
    expect((await mcp(app.baseUrl, { ip: address(), token: tok })).status).toBe(429);
    // Past the limit, an answer still gets through to the transport (no session here: 400, not 429)...
    expect((await mcp(app.baseUrl, { ip: address(), token: tok, body: answer(99) })).status).not.toBe(429);
    // ...and a request dressed as an answer is still a request.
    expect(
      (await mcp(app.baseUrl, { ip: address(), token: tok, body: { jsonrpc: "2.0", id: 7, method: "tools/list", result: {} } })).status,
    ).toBe(429);
  });

  it("a blocked subject cannot open a session (nothing recorded), and another subject on the same address is served", async () => {
    const ip = address();
    const blocked = await token(`user-blocked-${randomUUID()}`);
    for (let i = 0; i < 5; i++) await mcp(app.baseUrl, { ip: address(), token: blocked });
    const rows = async () => (await t.store.db.select({ n: count() }).from(mcpSessions))[0]!.n;
    const before = await rows();
    const init = {
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
    };
    const refused = await mcp(app.baseUrl, { ip, token: blocked, body: init });
    expect(refused.status).toBe(429);
    expect(await rows()).toBe(before);
    const other = await mcp(app.baseUrl, { ip, token: await token(`user-other-${randomUUID()}`), body: init });
    expect(other.status).toBe(200);
    expect(await rows()).toBe(before + 1);
    await other.body?.cancel();
  });

  it("limits one address before the token is checked: unauthenticated floods get 429, other addresses still get their 401", async () => {
    const ip = address();
    for (let i = 0; i < 8; i++) expect((await mcp(app.baseUrl, { ip })).status).toBe(401);
    const res = await mcp(app.baseUrl, { ip, id: 31 });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^[0-9]+$/);
    expect(await res.json()).toMatchObject({
      id: 31,
      error: { message: expect.stringMatching(/too many MCP requests from this network address/) },
    });
    // A good token does not lift an address limit.
    expect((await mcp(app.baseUrl, { ip, token: await token(`user-good-${randomUUID()}`) })).status).toBe(429);
    expect((await mcp(app.baseUrl, { ip: address() })).status).toBe(401);
  });

  it("shares counters between two instances on one store", async () => {
    const tok = await token(`user-two-instances-${randomUUID()}`);
    for (const base of [app.baseUrl, second.baseUrl, app.baseUrl, second.baseUrl, second.baseUrl])
      expect((await mcp(base, { ip: address(), token: tok })).status).toBe(400);
    expect((await mcp(app.baseUrl, { ip: address(), token: tok })).status).toBe(429);
    expect((await mcp(second.baseUrl, { ip: address(), token: tok })).status).toBe(429);
  });

  it("stores only hashed keys: no subject and no address in clear", async () => {
    const subject = `user-hashed-${randomUUID()}`;
    await mcp(app.baseUrl, { ip: "10.250.1.2", token: await token(subject) });
    const keys = (await t.store.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((k) => k.includes(subject) || k.includes("10.250.1.2"))).toBe(false);
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY is set: spoofed addresses do not escape the address limit", async () => {
    const untrusting = await startExtraInstance(t.store.db, { TRUST_PROXY: undefined, MCP_RATE_LIMIT_PER_ADDRESS: "3" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await mcp(untrusting.baseUrl, { ip: address() })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await untrusting.close();
    }
  });
});

describe("connect route rate limits", () => {
  const cookieFor = async (sub: string) =>
    `next-auth.session-token=${await encode({ token: { sub, name: sub }, secret: oidcConfig().sessionSecret })}`;
  const connect = (path: string, ip: string, cookie?: string) =>
    fetch(`${app.baseUrl}${path}`, { headers: { "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) }, redirect: "manual" });

  it("limits a signed-in subject across addresses with a plain 429 page and Retry-After; another subject is not blocked", async () => {
    const cookie = await cookieFor(`user-connect-${randomUUID()}`);
    for (let i = 0; i < 4; i++) expect((await connect(`/connect/${randomUUID()}`, address(), cookie)).status).not.toBe(429);
    const res = await connect(`/setup/demo-git`, address(), cookie);
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const page = await res.text();
    expect(page).toContain("Too many requests");
    expect(page).toContain("your account");
    expect(page).toMatch(/Nothing was changed/);
    expect((await connect(`/connect/${randomUUID()}`, address(), await cookieFor(`user-connect-other-${randomUUID()}`))).status).not.toBe(
      429,
    );
  });

  it("limits one address whether signed in or not; a forged session cookie counts as no subject", async () => {
    const ip = address();
    for (let i = 0; i < 6; i++)
      expect(
        (await connect(`/connect/${randomUUID()}`, ip, i % 2 ? "next-auth.session-token=forged.jwe.value" : undefined)).status,
      ).not.toBe(429);
    const res = await connect("/connect/callback?state=x", ip);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("your network address");
    expect((await connect("/connect/callback?state=x", address())).status).not.toBe(429);
  });

  it("does not limit other paths", async () => {
    const ip = address();
    for (let i = 0; i < 8; i++) expect((await connect("/.well-known/oauth-protected-resource", ip)).status).toBe(200);
  });
});
