// JSON-RPC error answers that carry the request's id whenever it could be read (JSON-RPC 2.0 §5:
// the id is null only when it could not be detected, e.g. a body that is not JSON or too large to
// read). A batch gets one error per request in it (notifications, having no id, get none); a batch
// with no request in it gets a single error with id null, as §6 says for an unusable batch.
import type http from "node:http";

export type JsonRpcId = string | number;

/** A valid JSON-RPC id (string or number); objects, arrays, booleans and null are not ids. */
function idOf(message: unknown): JsonRpcId | undefined {
  if (!message || typeof message !== "object" || Array.isArray(message) || !Object.hasOwn(message, "id")) return undefined;
  const id = (message as { id: unknown }).id;
  if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) return id;
  return undefined;
}

/** The error body for `body`: one error, or an array of errors for a batch of requests. */
export function jsonRpcErrorBody(body: unknown, code: number, message: string): unknown {
  const error = (id: JsonRpcId | null) => ({ jsonrpc: "2.0", error: { code, message }, id });
  if (Array.isArray(body)) {
    const ids = body.map(idOf).filter((id): id is JsonRpcId => id !== undefined);
    return ids.length > 0 ? ids.map(error) : error(null);
  }
  return error(idOf(body) ?? null);
}

export function writeJsonRpcError(
  res: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  body: unknown = undefined,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(jsonRpcErrorBody(body, code, message)));
}
