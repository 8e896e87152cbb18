// Hand-built 2026-07-28 requests over real HTTP, for what a well-behaved SDK client never sends:
// echoed, altered, replayed or foreign requestState, and envelope/header mismatches.
export const MODERN = "2026-07-28";

export function envelope(capabilities: Record<string, unknown> = { elicitation: { form: {}, url: {} } }, version = MODERN) {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw-modern-client", version: "0.0.1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

export interface RawAnswer {
  status: number;
  id: unknown;
  result?: Record<string, unknown> & {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

let nextId = 1;

export async function modernPost(
  resource: string,
  token: string,
  body: { method: string; params?: Record<string, unknown>; id?: number | string | null },
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const id = body.id === undefined ? nextId++ : body.id;
  const res = await fetch(resource, {
    method: "POST",
    // SEP-2243 standard headers: the method, and the name the body's params.name mirrors.
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": body.method,
      ...(typeof body.params?.name === "string" ? { "mcp-name": body.params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...(id === null ? {} : { id }), method: body.method, params: body.params ?? {} }),
  });
  const text = await res.text();
  // One JSON body, or an SSE stream whose last data frame is the response.
  const json = (res.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>)
        .filter((m) => "result" in m || "error" in m)
        .at(-1)
    : text
      ? (JSON.parse(text) as Record<string, unknown>)
      : {};
  return { status: res.status, id: json?.id, result: json?.result as RawAnswer["result"], error: json?.error as RawAnswer["error"] };
}

/** A tools/call with the envelope; `retry` carries inputResponses and the echoed requestState. */
export function callTool(
  resource: string,
  token: string,
  name: string,
  opts: {
    args?: Record<string, unknown>;
    capabilities?: Record<string, unknown>;
    retry?: { requestState: string; inputResponses: Record<string, unknown> };
  } = {},
) {
  return modernPost(resource, token, {
    method: "tools/call",
    params: { name, arguments: opts.args ?? {}, _meta: envelope(opts.capabilities), ...(opts.retry ?? {}) },
  });
}
