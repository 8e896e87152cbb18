// The checks every /api/mcp request passes before any protocol handling, whatever the protocol era
// (2025-11-25 sessions or a stateless era): the body read within its cap, Origin, the client
// address's rate, the bearer token, the subject's rate. Each refusal is answered here (a JSON-RPC
// error carrying the request's id where it could be read) and changes nothing.
//
// Origin comes first, before the token: a page on a foreign origin gets the same 403 whatever
// token it holds (valid, forged or none), so the check is no oracle for tokens, and a DNS-rebinding
// page is refused before any work is done for it. The address limit comes before the token so an
// unauthenticated flood is cut off cheaply; the subject limit needs the verified subject.
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@/lib/http/json-depth";
import type http from "node:http";
import { clientAddress } from "@/lib/abuse/client-address";
import type { RequestLimiter } from "@/lib/abuse/rate-limiter";
import { BearerError, bearerChallenge, type McpPrincipal } from "@/lib/auth/mcp-bearer";
import { logger } from "@/lib/log/logger";
import { writeJsonRpcError } from "./jsonrpc-error";
import { originAllowed } from "./origin-guard";

export const MAX_BODY = 1024 * 1024;

export interface RequestGuardOptions {
  verify: (authorization: string | undefined) => Promise<McpPrincipal>;
  resource: string;
  /** Exact origins a browser page may call from (APP_URL's and MCP_ALLOWED_ORIGINS). */
  allowedOrigins: ReadonlySet<string>;
  limiter: RequestLimiter;
  trustProxy: boolean;
}

export type Guarded = { ok: true; principal: McpPrincipal; body: unknown; fail: Fail } | { ok: false };
export type Fail = (status: number, code: number, message: string, headers?: Record<string, string>) => void;

class BodyTooLarge extends Error {}
class TooDeep extends Error {}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > MAX_BODY) throw new BodyTooLarge();
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  if (jsonDepthExceeds(parsed)) throw new TooDeep();
  return parsed;
}

function isJsonRpcResponse(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    !Object.hasOwn(body, "method") &&
    (Object.hasOwn(body, "result") || Object.hasOwn(body, "error"))
  );
}

/** Runs the checks; on refusal the response is already written and `{ ok: false }` returned. */
export async function guardMcpRequest(req: http.IncomingMessage, res: http.ServerResponse, options: RequestGuardOptions): Promise<Guarded> {
  // The body first (bounded), so every error below can carry the request's id. Past the cap or not
  // JSON, the id cannot be read: JSON-RPC 2.0 says null then.
  let body: unknown;
  if (req.method === "POST") {
    try {
      body = await readJson(req);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        res.shouldKeepAlive = false;
        writeJsonRpcError(res, 413, -32600, "request too large", undefined, { connection: "close" });
      } else if (err instanceof TooDeep)
        writeJsonRpcError(res, 400, -32600, `invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
      else writeJsonRpcError(res, 400, -32700, "parse error: body is not JSON");
      return { ok: false };
    }
  }
  const fail: Fail = (status, code, message, headers = {}) => writeJsonRpcError(res, status, code, message, body, headers);
  const refuse = (...args: Parameters<Fail>) => (fail(...args), { ok: false as const });

  if (!originAllowed(req.headers.origin, options.allowedOrigins)) {
    logger.info({ event: "mcp.origin_refused" }, "request from a foreign origin refused");
    return refuse(403, -32000, "forbidden: requests from this origin are not allowed");
  }
  // No JSON-RPC batches: MCP removed them in 2025-06-18 and neither revision served here has them.
  // Refused whole, before any check or limit is spent on its contents, so one HTTP request can never
  // carry more than one call past the per-subject rate limit (id null: the batch is not a request).
  if (Array.isArray(body)) {
    logger.info({ event: "mcp.batch_refused", messages: body.length }, "JSON-RPC batch refused");
    writeJsonRpcError(res, 400, -32600, "invalid request: batching is not supported; send one JSON-RPC message per HTTP request");
    return { ok: false };
  }
  const byAddress = await options.limiter.consume("address", clientAddress(req, options.trustProxy));
  if (!byAddress.ok) return refuse(429, -32000, byAddress.message, { "retry-after": String(byAddress.retryAfterSeconds) });

  let principal: McpPrincipal;
  try {
    principal = await options.verify(req.headers.authorization);
  } catch (err) {
    const bearer = err instanceof BearerError ? err : undefined;
    logger.info({ event: "mcp.auth_refused", reason: bearer?.message ?? "verifier error" }, "bearer refused");
    return refuse(401, -32001, bearer ? `unauthorized: ${bearer.message}` : "unauthorized", {
      "www-authenticate": bearerChallenge(options.resource, bearer),
    });
  }
  // A JSON-RPC response (no method; a result or an error) is the client's answer to a request this
  // server sent, an elicitation above all: refusing it for the subject's rate would drop a person's
  // answer and leave the call waiting for its timeout. There can be no more of them than requests
  // we sent (others are dropped by the transport), and each still passed the address limit and a
  // verified token, so they are not counted against the subject.
  if (isJsonRpcResponse(body)) return { ok: true, principal, body, fail };
  const bySubject = await options.limiter.consume("subject", `${principal.tenant}\u0000${principal.subject}`);
  if (!bySubject.ok) return refuse(429, -32000, bySubject.message, { "retry-after": String(bySubject.retryAfterSeconds) });
  return { ok: true, principal, body, fail };
}
