// Acceptance: tokens that are expired, not yet valid, for another audience, from another issuer,
// badly signed, or without `sub` are refused with 401 (and a resource_metadata challenge); a good
// one is accepted and its `sub` and tenant reach the request. Real SDK client, real HTTP, a real
// oidc-provider issuing the good token.
import crypto from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { importJWK, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { devJwks } from "@/lib/auth/dev-idp/keys";
import { getSession } from "@/lib/mcp/session-records";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
let resource: string;
let issuer: string;

beforeAll(async () => {
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
  issuer = `${app.baseUrl}/oidc`;
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const good = (subject = "user-alice-1001", tenant = "acme", ttlSeconds = 300) =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant, ttlSeconds, mcpResource: resource });

async function forged(claims: Record<string, unknown>, opts: { key?: "issuer" | "stranger"; typ?: string } = {}): Promise<string> {
  const jwk = devJwks().keys[0] as JWK & { kid: string };
  const key =
    opts.key === "stranger" ? crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey : await importJWK(jwk, "RS256");
  const now = Math.floor(Date.now() / 1000);
  const body = {
    iss: issuer,
    aud: resource,
    sub: "user-alice-1001",
    tenant: "acme",
    scope: "mcp",
    client_id: "x",
    iat: now,
    exp: now + 300,
    jti: crypto.randomUUID(),
    ...claims,
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete (body as Record<string, unknown>)[k];
  return new SignJWT(body).setProtectedHeader({ alg: "RS256", typ: opts.typ ?? "at+jwt", kid: jwk.kid }).sign(key);
}

const initialize = (token?: string) =>
  fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });

describe("MCP bearer authorization", () => {
  it("publishes RFC 9728 metadata naming the resource and its authorization server", async () => {
    const res = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp`);
    expect(await res.json()).toMatchObject({ resource, authorization_servers: [issuer] });
    const discovery = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({ issuer, registration_endpoint: `${issuer}/reg` });
    expect(discovery.code_challenge_methods_supported).toContain("S256");
  });

  const now = () => Math.floor(Date.now() / 1000);
  const refused: Array<[string, () => Promise<string | undefined>, RegExp]> = [
    ["no token", async () => undefined, /missing bearer token/],
    ["garbage", async () => "not-a-jwt", /malformed/],
    ["expired", () => forged({ iat: now() - 600, exp: now() - 60 }), /expired/],
    ["not yet valid", () => forged({ nbf: now() + 600 }), /"nbf"/],
    ["another audience", () => forged({ aud: "https://other.example/api" }), /"aud"/],
    ["another issuer", () => forged({ iss: "https://evil.example/oidc" }), /"iss"/],
    ["badly signed", () => forged({}, { key: "stranger" }), /signature/],
    ["without sub", () => forged({ sub: undefined }), /"sub"/],
    ["without tenant", () => forged({ tenant: undefined }), /no tenant/],
    ["an ID token, not an access token", () => forged({}, { typ: "JWT" }), /"typ"/],
  ];

  it.each(refused)("refuses %s with 401 and a resource_metadata challenge", async (_name, make, reason) => {
    const res = await initialize(await make());
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate")!;
    expect(challenge).toContain(`resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`);
    expect((await res.json()).error.message).toMatch(reason);
  });

  it("accepts a good token from the issuer; its sub and tenant reach the tool and the session record", async () => {
    const token = await good("user-mallory-2001", "globex");
    const client = new Client({ name: "bearer-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const transport = new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    const result = await client.callTool({ name: "describe_capabilities", arguments: {} });
    expect(result.structuredContent).toMatchObject({
      subject: "user-mallory-2001",
      tenant: "globex",
      modes: { form: true, url: false },
      declaredElicitation: {},
    });
    const session = await getSession(t.store.db, transport.sessionId!);
    expect(session).toMatchObject({
      subject: "user-mallory-2001",
      tenantId: "globex",
      clientName: "bearer-test",
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      formDeclared: true,
      urlDeclared: false,
    });
    await client.close();
  });

  it("does not let another user's token drive an existing session", async () => {
    const client = new Client({ name: "owner", version: "1" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${await good()}` } },
    });
    await client.connect(transport);
    const res = await fetch(resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await good("user-bob-1002", "acme")}`,
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "describe_capabilities", arguments: {} } }),
    });
    expect(res.status).toBe(404);
    await client.close();
  });

  it("answers a malformed body with a JSON-RPC parse error and creates no session", async () => {
    const res = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await good()}` },
      body: "{ nope",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
  });
});
