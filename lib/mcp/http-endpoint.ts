// /api/mcp: a stateful Streamable HTTP MCP endpoint behind bearer authorization, served by the
// SDK's Node transport directly from the app server (not through Next's router: lower latency,
// and streaming responses stay under our control). One McpServer per session; a session is bound
// to the subject and tenant that initialized it, and another user's token cannot drive it.
//
// Every request first passes guardMcpRequest (request-guard.ts: body cap, Origin, rates, bearer);
// then the session (404 / 400), and for an initialize the subject's cap on open sessions (429).
// Each refusal changes nothing and answers a JSON-RPC error carrying the request's id.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { logger } from "@/lib/log/logger";
import { noteMcpBody } from "@/lib/metrics/mcp-request";
import { directPolicy, type PolicySource } from "@/lib/policy/policy-source";
import { clientPresence, requestIdsOf, type ClientPresence } from "./client-presence";
import { startIdleSweeper, sweepIdleSessions, type SweptSession } from "./idle-sweeper";
import { writeJsonRpcError } from "./jsonrpc-error";
import { liveSessions } from "./live-sessions";
import { guardMcpRequest, MAX_BODY, type RequestGuardOptions } from "./request-guard";
import { createModernEndpoint, type ModernEndpoint } from "./modern/endpoint";
import { buildMcpServer } from "./server";
import { admitSession, closeSession, forgetSession, type SessionCap } from "./session-records";

interface LiveSession extends SweptSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  principal: McpPrincipal;
  presence: ClientPresence;
  /** The protocol version negotiated at initialize: every later request must carry exactly it. */
  protocolVersion: string;
}

const sessions = liveSessions<LiveSession>();

export interface McpEndpointOptions extends RequestGuardOptions {
  db: () => Promise<Db>;
  /** The server's cached policy; without one, every decision reads the store. */
  policy?: PolicySource;
  instanceId: string;
  sessionCap: SessionCap;
}

export type McpEndpoint = ((req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) & {
  /** Evicts idle sessions now (the timer does it every quarter of the idle time). */
  sweep(): Promise<{ evicted: number }>;
  close(): void;
};

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const evict = async (id: string, live: LiveSession) => {
    sessions.delete(id);
    // Pending elicitations end as "client went away" before the transport's close aborts them.
    live.presence.end();
    await live.server.close().catch(() => {});
    await closeSession(await options.db(), id);
  };
  const sweeperOptions = { db: options.db, idleMs: options.sessionCap.idleMs, sessions, evict };
  const stopSweeper = startIdleSweeper(sweeperOptions);
  // Both protocol eras on one path: 2026-07-28 requests go to the modern leg (lib/mcp/modern/),
  // after the same front checks (body cap, Origin, rate limits, bearer) as 2025-era ones.
  const modern = createModernEndpoint({ db: options.db, policy: options.policy, maxBodyBytes: MAX_BODY });
  const handle = endpointHandler(options, modern);
  const endpoint = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      await handle(req, res);
    } catch (err) {
      // The store failing mid-request (an outage, a read-only or full database) is a clear 503,
      // never a driver message; anything else propagates to the server's generic 500.
      const failure = storeFailureOf(err);
      if (!failure) throw err;
      logger.error({ event: "mcp.store_failure", store: failure }, "MCP request failed on the store");
      if (!res.headersSent)
        writeJsonRpcError(
          res,
          503,
          -32603,
          `service unavailable: ${storeFailureText(failure)}; nothing was done, retry in a moment`,
          undefined,
          { "retry-after": "2" },
        );
      else res.end();
    }
  };
  return Object.assign(endpoint, { sweep: () => sweepIdleSessions(sweeperOptions), close: stopSweeper });
}

/**
 * Counts a POST as in flight until its response ends (a session waiting on a person is busy), and
 * watches that response: closed before it finished, the client is gone from its calls.
 */
function track(live: LiveSession, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): void {
  live.lastActivity = Date.now();
  if (req.method !== "POST") return;
  live.presence.watch(requestIdsOf(body), res);
  live.inFlight += 1;
  res.once("close", () => {
    live.inFlight -= 1;
    live.lastActivity = Date.now();
  });
}

function endpointHandler(options: McpEndpointOptions, modern: ModernEndpoint) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const guarded = await guardMcpRequest(req, res, options);
    if (!guarded.ok) return;
    const { principal, body, fail } = guarded;
    noteMcpBody(res, body);

    // 2026-07-28 (stateless, per-request envelope): same bearer check above, its own leg here.
    if (await modern.isModern(req, body)) return modern.handle(req, res, body, principal);

    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const live = sessions.get(sid);
      // Unknown, or someone else's: the same answer, so session ids cannot be probed.
      if (!live || live.principal.subject !== principal.subject || live.principal.tenant !== principal.tenant) {
        return fail(404, -32001, "session not found");
      }
      // The header, when sent, must name the version this session negotiated (the spec's 400 for a
      // mismatch): an older revision's rules must not be claimed half-way through a session. A
      // request without it is taken as the session's version, as the transport itself does.
      const claimed = req.headers["mcp-protocol-version"];
      if (claimed !== undefined && claimed !== live.protocolVersion) {
        return fail(
          400,
          -32000,
          `Bad Request: MCP-Protocol-Version ${String(claimed).slice(0, 40)} does not match this session's negotiated version ${live.protocolVersion}`,
        );
      }
      live.principal = principal;
      track(live, req, res, body);
      return live.transport.handleRequest(Object.assign(req, { auth: authInfo(principal) }), res, body);
    }

    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return fail(400, -32600, "no session: send initialize first");
    }
    // The transport's own checks of an initialize's headers, made before the session is admitted
    // (and recorded) so a refused initialize leaves nothing behind: same conditions, same codes.
    const accept = req.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return fail(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    if (!isJsonContentType(req.headers["content-type"] ?? null))
      return fail(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    const init = body;
    const db = await options.db();
    const requested = init.params.protocolVersion;
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    // The id is chosen here so the session is admitted (and recorded) before the transport runs.
    const id = randomUUID();
    const admitted = await admitSession(
      db,
      {
        id,
        subject: principal.subject,
        tenantId: principal.tenant,
        clientName: init.params.clientInfo.name,
        clientVersion: init.params.clientInfo.version,
        protocolVersion,
        // Exactly as sent, including an empty `elicitation: {}`.
        capabilities: init.params.capabilities as Record<string, unknown>,
        instanceId: options.instanceId,
      },
      options.sessionCap,
    );
    if (!admitted.ok) {
      logger.info({ event: "mcp.session_cap", open: admitted.open }, "session refused: subject at its cap");
      return fail(
        429,
        -32000,
        `too many open sessions: this account already has ${admitted.open} (the limit); close one (HTTP DELETE) or retry after ${admitted.retryAfterSeconds} s, when the oldest idle one is closed`,
        {
          "retry-after": String(admitted.retryAfterSeconds),
        },
      );
    }
    const now = Date.now();
    const live = {
      principal,
      lastActivity: now,
      persistedActivity: now,
      inFlight: 0,
      presence: clientPresence(),
      protocolVersion,
    } as LiveSession;
    live.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, live);
      },
      onsessionclosed: async (sessionId) => {
        // DELETE: the client ended its session; whatever it left pending ends now.
        live.presence.end();
        sessions.delete(sessionId);
        await closeSession(db, sessionId);
      },
    });
    live.transport.onclose = () => {
      live.presence.end();
      if (live.transport.sessionId) sessions.delete(live.transport.sessionId);
    };
    live.server = buildMcpServer({
      principal: live.principal,
      db,
      policy: options.policy ?? directPolicy(db),
      sessionId: () => live.transport.sessionId,
      protocolVersion: () => protocolVersion,
      clientGone: (requestId) => live.presence.signal(requestId),
    });
    await live.server.connect(live.transport);
    track(live, req, res, body);
    try {
      await live.transport.handleRequest(Object.assign(req, { auth: authInfo(principal) }), res, body);
    } finally {
      // The transport refused the initialize (say, a client that accepts no event stream): no session.
      if (!live.transport.sessionId) {
        await live.server.close().catch(() => {});
        await forgetSession(db, id);
      }
    }
  };
}

function authInfo(p: McpPrincipal) {
  // The token itself is not passed on: nothing downstream of this check needs it.
  return {
    token: "[verified]",
    clientId: p.clientId,
    scopes: p.scopes,
    expiresAt: p.expiresAt,
    extra: { subject: p.subject, tenant: p.tenant },
  };
}
