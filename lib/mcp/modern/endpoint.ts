// The 2026-07-28 leg of /api/mcp. lib/mcp/http-endpoint.ts verifies the bearer token and reads the
// body as it always has, then asks isModern(): the SDK's own classification (isLegacyRequest, the
// code createMcpHandler itself routes with) decides, so the two can never disagree. Modern traffic
// goes to a strict SDK v2 handler (`legacy: 'reject'`), which owns the revision's envelope and
// header checks (-32020 mismatch, -32022 unsupported version, -32602 malformed envelope),
// `server/discover`, and the answers for methods this revision removed. A retry's requestState is
// checked first (state-gate.ts). Everything 2025-era keeps today's sessionful path untouched.
import type http from "node:http";
import { createMcpHandler, isLegacyRequest, type AuthInfo } from "@modelcontextprotocol/server";
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { oidcConfig } from "@/lib/auth/oidc-config";
import type { ResumedAnswer } from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import { directPolicy, type PolicySource } from "@/lib/policy/policy-source";
import { requestStateKey } from "../request-state-key";
import { attachModernGateway, wantsGatewayTools } from "@/lib/gateway/modern-hook";
import { resolveFlow } from "@/lib/policy/resolve-flow";
import { buildModernServer, envelopeFacts } from "./server";
import { requestStateGate } from "./state-gate";

export interface ModernEndpointOptions {
  db: () => Promise<Db>;
  policy?: PolicySource;
  /** The same bound the legacy path applies to a body. */
  maxBodyBytes: number;
}

export interface ModernEndpoint {
  /** True when the SDK classifies this request as 2026-07-28 traffic (POST with the envelope claim). */
  isModern(req: http.IncomingMessage, body: unknown): Promise<boolean>;
  handle(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, principal: McpPrincipal): Promise<void>;
}

export function createModernEndpoint(options: ModernEndpointOptions): ModernEndpoint {
  // Read at start-up: production refuses to start without MCP_REQUEST_STATE_KEY.
  const stateKey = requestStateKey();
  const issuers = { issuer: oidcConfig().issuer };
  const handler = createMcpHandler(
    async (rc) => {
      const db = await options.db();
      const { resume, gateway } = (rc.authInfo?.extra ?? {}) as { resume?: ResumedAnswer; gateway?: boolean };
      const principal = principalOf(rc.authInfo);
      const policy = options.policy ?? directPolicy(db);
      const server = buildModernServer({ principal, db, policy, stateKey, resume, ...issuers });
      // Gateway mode: this tenant's upstream tools, bridged with multi-round-trip requests (lib/gateway/);
      // looked up only for a listing or a call of an upstream tool, so our own calls pay nothing.
      if (gateway)
        await attachModernGateway(server, {
          db,
          policy,
          principal,
          stateKey,
          resume,
          facts: envelopeFacts,
          flowFor: (workflow) => resolveFlow({ db, policy, clientId: principal.clientId, ...issuers }, { name: workflow, needs: [] }),
        });
      return server;
    },
    {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes,
      // Reported, never altering the answer; the message names methods and codes, never values.
      onerror: (err) =>
        logger.info({ event: "mcp.modern_refused", error: err.name, detail: err.message.slice(0, 200) }, "modern request refused"),
    },
  );
  return {
    async isModern(req, body) {
      // Only a POST can carry the envelope claim; body-less GET/DELETE are 2025 session operations.
      if (req.method !== "POST" || body === undefined) return false;
      return !(await isLegacyRequest(webRequest(req, body), body, { maxRequestBodySize: options.maxBodyBytes }));
    },
    async handle(req, res, body, principal) {
      // A retry's requestState is verified before anything is dispatched; a refusal ends here.
      const gate = await requestStateGate(await options.db(), stateKey, principal, body);
      if (gate.kind === "refused") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(
          JSON.stringify({ jsonrpc: "2.0", id: gate.id, error: { code: -32602, message: gate.message, data: { reason: gate.reason } } }),
        );
      }
      const abort = new AbortController();
      res.once("close", () => abort.abort());
      const base = authInfo(principal);
      const auth = {
        ...base,
        extra: { ...base.extra, ...(gate.kind === "resume" ? { resume: gate.resume } : {}), gateway: wantsGatewayTools(body) },
      };
      const response = await handler.fetch(webRequest(req, body, abort.signal), { authInfo: auth, parsedBody: body });
      await writeResponse(res, response);
    },
  };
}

function webRequest(req: http.IncomingMessage, body: unknown, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body is re-serialised, so its framing headers no longer apply.
    if (value === undefined || name === "content-length" || name === "transfer-encoding" || name.startsWith(":")) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  return new Request(url, { method: req.method, headers, body: JSON.stringify(body), signal });
}

async function writeResponse(res: http.ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.end();
  }
}

function authInfo(p: McpPrincipal): AuthInfo {
  // The token itself is not passed on: nothing downstream of the bearer check needs it.
  return {
    token: "[verified]",
    clientId: p.clientId,
    scopes: p.scopes,
    expiresAt: p.expiresAt,
    extra: { subject: p.subject, tenant: p.tenant },
  };
}

function principalOf(info: AuthInfo | undefined): McpPrincipal {
  const extra = info?.extra as { subject?: unknown; tenant?: unknown } | undefined;
  if (!info || typeof extra?.subject !== "string" || typeof extra.tenant !== "string")
    throw new Error("modern MCP request without a verified principal");
  return { subject: extra.subject, tenant: extra.tenant, clientId: info.clientId, scopes: info.scopes, expiresAt: info.expiresAt ?? 0 };
}
