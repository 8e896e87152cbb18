// The gateway's OAuth client-credentials authentication to an upstream, against a real issuer
// (oidc-provider: the client_credentials grant, JWT access tokens for the upstream's audience) and
// an SDK upstream that verifies every request's access token against the issuer's keys. Proves:
// the token is obtained at the issuer and accepted by the upstream, cached across calls and people;
// a wrong client secret gives a clear error naming the issuer (never a secret) and nothing reaches
// the upstream; an expired token is replaced by a fresh grant, on the same pooled session; and a
// token the upstream refuses before its expiry (revoked, rotated keys) is replaced once.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { upstreamPool } from "@/lib/gateway/upstream-pool";
import { useGatewayApp } from "../helpers/gateway-app";
import { startClientCredentialsIssuer, type CcIssuer } from "../helpers/cc-issuer";

process.env.FLOW_NEW_STAGE = "canary:100";
// Sessions stay pooled across the clock jump below (idle eviction is tested in gateway-pool.test.ts).
process.env.GATEWAY_POOL_IDLE_SECONDS = "3600";
const SECRET = `cc-secret-${randomUUID()}`;
const WRONG = `wrong-secret-${randomUUID()}`;
process.env.UPSTREAM_SECRET_CC = SECRET;
process.env.UPSTREAM_SECRET_CC_WRONG = WRONG;
const CLIENT_ID = "gateway-service";

const gw = useGatewayApp({ subjectPrefix: "user-cc" });
let issuer: CcIssuer;
let up: Awaited<ReturnType<typeof guardedUpstream>>;

/** An SDK upstream that answers only requests bearing a valid access token from the issuer. */
async function guardedUpstream(audience: () => string, issuerUrl: () => string) {
  const accepted: Array<{ method: string; session?: string; jti: string }> = [];
  const refused: string[] = [];
  const revoked = new Set<string>();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const verified = token
        ? await jwtVerify(token, createRemoteJWKSet(new URL(`${issuerUrl()}/jwks`)), { issuer: issuerUrl(), audience: audience() }).catch(
            () => undefined,
          )
        : undefined;
      if (!verified || revoked.has(String(verified.payload.jti))) {
        refused.push(token ?? "");
        return void res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end();
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const sid = req.headers["mcp-session-id"] as string | undefined;
      accepted.push({ method: body?.method ?? req.method!, session: sid, jti: String(verified.payload.jti) });
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (req.method !== "POST" || sid) return void res.writeHead(404).end();
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        const server = new McpServer({ name: "guarded", version: "1" });
        server.registerTool("echo", { inputSchema: {} }, async () => ({
          content: [{ type: "text", text: `hello ${String(verified.payload.client_id)}` }],
        }));
        await server.connect(transport);
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as net.AddressInfo).port}/mcp`,
    accepted,
    refused,
    revoked,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}

beforeAll(async () => {
  let audience = "";
  up = await gw.serve(
    guardedUpstream(
      () => audience,
      () => issuer.issuer,
    ),
  );
  audience = up.url;
  issuer = await gw.serve(startClientCredentialsIssuer({ clientId: CLIENT_ID, clientSecret: SECRET, audience: up.url, ttlSeconds: 600 }));
  const auth = {
    kind: "oauth_client_credentials" as const,
    issuer: issuer.issuer,
    clientId: CLIENT_ID,
    clientSecretEnv: "UPSTREAM_SECRET_CC",
    scope: "tools",
  };
  await gw.register({
    id: "cc",
    displayName: "Guarded",
    url: up.url,
    auth,
    tenants: ["acme"],
    exposedTools: ["*"],
  });
  await gw.register({
    id: "ccwrong",
    displayName: "Guarded (wrong secret)",
    url: up.url,
    auth: { ...auth, clientSecretEnv: "UPSTREAM_SECRET_CC_WRONG" },
    tenants: ["acme"],
    exposedTools: ["*"],
  });
}, 60_000);
// Runs before useGatewayApp's afterAll (vitest runs them in reverse), which closes the upstream, the issuer, the app and the store.
afterAll(async () => {
  vi.useRealTimers();
  await upstreamPool().closeAll();
});

async function client() {
  const { token } = await gw.person({ ttlSeconds: 86_400 });
  return gw.connect("2025-11-25", token, { capabilities: {} });
}

describe("client credentials at a real issuer", () => {
  it("the gateway obtains a token at the issuer, the upstream accepts it, and it is cached across calls and people", async () => {
    const before = issuer.tokenRequests;
    const a = await client();
    const b = await client();
    expect((await a.call("cc__echo")).text).toBe(`hello ${CLIENT_ID}`);
    expect((await b.call("cc__echo")).text).toBe(`hello ${CLIENT_ID}`);
    expect((await a.call("cc__echo")).text).toBe(`hello ${CLIENT_ID}`);
    expect(issuer.tokenRequests - before).toBe(1);
    const calls = up.accepted.filter((x) => x.method === "tools/call");
    expect(new Set(calls.map((c) => c.jti)).size).toBe(1);
    await a.close();
    await b.close();
  }, 60_000);

  it("a wrong client secret: a clear error naming the issuer, no secret in it, and nothing reaches the upstream", async () => {
    const c = await client();
    const before = { accepted: up.accepted.length, refused: up.refused.length };
    const r = await c.call("ccwrong__echo");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Not done: upstream Guarded (wrong secret) (ccwrong) failed");
    expect(r.text).toContain(`the client credentials grant at ${issuer.issuer} failed`);
    expect(r.text).not.toContain(WRONG);
    expect(r.text).not.toContain(SECRET);
    expect(up.accepted.length).toBe(before.accepted);
    expect(up.refused.length).toBe(before.refused);
    await c.close();
  }, 60_000);

  it("an expired token is replaced by a fresh grant, and the pooled session carries the new one", async () => {
    const c = await client();
    await c.call("cc__echo");
    const first = up.accepted.filter((x) => x.method === "tools/call").at(-1)!;
    const before = issuer.tokenRequests;
    // 580 s later: the ten-minute token is inside the gateway's 30 s renewal margin, the pooled
    // session (600 s maximum age) is still good. Only the clock moves; timers stay real.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 580_000 });
    try {
      expect((await c.call("cc__echo")).text).toBe(`hello ${CLIENT_ID}`);
      const second = up.accepted.filter((x) => x.method === "tools/call").at(-1)!;
      expect(issuer.tokenRequests - before).toBe(1);
      expect(second.jti).not.toBe(first.jti);
      expect(second.session).toBe(first.session);
    } finally {
      vi.useRealTimers();
    }
    await c.close();
  }, 60_000);

  it("a token the upstream refuses before it expires (revoked) is dropped and replaced once; the call succeeds", async () => {
    const c = await client();
    await c.call("cc__echo");
    const current = up.accepted.filter((x) => x.method === "tools/call").at(-1)!;
    up.revoked.add(current.jti);
    const before = { tokens: issuer.tokenRequests, refused: up.refused.length };
    expect((await c.call("cc__echo")).text).toBe(`hello ${CLIENT_ID}`);
    expect(issuer.tokenRequests - before.tokens).toBe(1);
    expect(up.refused.length - before.refused).toBe(1);
    expect(decodeJwt(up.refused.at(-1)!).jti).toBe(current.jti);
    expect(up.accepted.filter((x) => x.method === "tools/call").at(-1)!.jti).not.toBe(current.jti);
    await c.close();
  }, 60_000);
});
