// /api/mcp: a stateful Streamable HTTP MCP endpoint behind bearer authorization, served by the
// SDK's Node transport directly from the app server (not through Next's router: lower latency,
// and streaming responses stay under our control). One McpServer per session; a session is bound
// to the subject and tenant that initialized it, and another user's token cannot drive it.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import { BearerError, bearerChallenge, type McpPrincipal } from "@/lib/auth/mcp-bearer";
import { logger } from "@/lib/log/logger";
import { directPolicy, type PolicySource } from "@/lib/policy/policy-source";
import { liveSessions } from "./live-sessions";
import { createModernEndpoint, type ModernEndpoint } from "./modern/endpoint";
import { buildMcpServer } from "./server";
import { closeSession, recordSession } from "./session-records";

const MAX_BODY = 1024 * 1024;

interface LiveSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  principal: McpPrincipal;
}

const sessions = liveSessions<LiveSession>();

export interface McpEndpointOptions {
  verify: (authorization: string | undefined) => Promise<McpPrincipal>;
  resource: string;
  db: () => Promise<Db>;
  /** The server's cached policy; without one, every decision reads the store. */
  policy?: PolicySource;
  instanceId: string;
}

function jsonRpcError(res: http.ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

/** The id of the request a refused body carried, so the error answers it (null when there is none). */
function requestIdOf(body: unknown): string | number | null {
  const id = body && typeof body === "object" && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RangeError("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export function createMcpEndpoint(options: McpEndpointOptions) {
  // Both protocol eras on one path: 2026-07-28 requests go to the modern leg (lib/mcp/modern/).
  const modern = createModernEndpoint({ db: options.db, policy: options.policy, maxBodyBytes: MAX_BODY });
  const handle = endpointHandler(options, modern);
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      await handle(req, res);
    } catch (err) {
      // The store failing mid-request (an outage, a read-only or full database) is a clear 503,
      // never a driver message; anything else propagates to the server's generic 500.
      const failure = storeFailureOf(err);
      if (!failure) throw err;
      logger.error({ event: "mcp.store_failure", store: failure }, "MCP request failed on the store");
      if (!res.headersSent) jsonRpcError(res, 503, -32603, `service unavailable: ${storeFailureText(failure)}; nothing was done, retry in a moment`, { "retry-after": "2" });
      else res.end();
    }
  };
}

function endpointHandler(options: McpEndpointOptions, modern: ModernEndpoint) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    let principal: McpPrincipal;
    try {
      principal = await options.verify(req.headers.authorization);
    } catch (err) {
      const bearer = err instanceof BearerError ? err : undefined;
      logger.info({ event: "mcp.auth_refused", reason: bearer?.message ?? "verifier error" }, "bearer refused");
      return jsonRpcError(res, 401, -32001, bearer ? `unauthorized: ${bearer.message}` : "unauthorized", { "www-authenticate": bearerChallenge(options.resource, bearer) });
    }

    let body: unknown;
    if (req.method === "POST") {
      try {
        body = await readJson(req);
      } catch (err) {
        return err instanceof RangeError ? jsonRpcError(res, 413, -32600, "request too large") : jsonRpcError(res, 400, -32700, "parse error: body is not JSON");
      }
    }

    // 2026-07-28 (stateless, per-request envelope): same bearer check above, its own leg here.
    if (await modern.isModern(req, body)) return modern.handle(req, res, body, principal);

    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const live = sessions.get(sid);
      // Unknown, or someone else's: the same answer, so session ids cannot be probed.
      if (!live || live.principal.subject !== principal.subject || live.principal.tenant !== principal.tenant) {
        return jsonRpcError(res, 404, -32001, "session not found", {}, requestIdOf(body));
      }
      live.principal = principal;
      return live.transport.handleRequest(Object.assign(req, { auth: authInfo(principal) }), res, body);
    }

    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32600, "no session: send initialize first", {}, requestIdOf(body));
    }
    const init = body;
    const db = await options.db();
    const live = { principal } as LiveSession;
    const requested = init.params.protocolVersion;
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    live.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: async (id) => {
        sessions.set(id, live);
        await recordSession(db, {
          id,
          subject: principal.subject,
          tenantId: principal.tenant,
          clientName: init.params.clientInfo.name,
          clientVersion: init.params.clientInfo.version,
          protocolVersion,
          // Exactly as sent, including an empty `elicitation: {}`.
          capabilities: init.params.capabilities as Record<string, unknown>,
          instanceId: options.instanceId,
        });
      },
      onsessionclosed: async (id) => {
        sessions.delete(id);
        await closeSession(db, id);
      },
    });
    live.transport.onclose = () => {
      if (live.transport.sessionId) sessions.delete(live.transport.sessionId);
    };
    live.server = buildMcpServer({ principal: live.principal, db, policy: options.policy ?? directPolicy(db), sessionId: () => live.transport.sessionId, protocolVersion: () => protocolVersion });
    await live.server.connect(live.transport);
    await live.transport.handleRequest(Object.assign(req, { auth: authInfo(principal) }), res, body);
  };
}

function authInfo(p: McpPrincipal) {
  // The token itself is not passed on: nothing downstream of this check needs it.
  return { token: "[verified]", clientId: p.clientId, scopes: p.scopes, expiresAt: p.expiresAt, extra: { subject: p.subject, tenant: p.tenant } };
}
