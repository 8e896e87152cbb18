// One client session against the target, as a variant of the flow's client profile: the v1 SDK
// client for 2025-11-25 (initialize), the v2 client pinned to 2026-07-28 (MRTR, which it fulfils
// through the same elicitation handler). It keeps what the checks compare: every elicitation the
// client was asked, and the ids of its own tools/call requests.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ClientVariant } from "./client-variants";

export interface Elicited {
  mode?: string;
  message?: string;
  url?: string;
  elicitationId?: string;
  requestedSchema?: unknown;
  [k: string]: unknown;
}

export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export type Answerer = (req: Elicited) => ElicitAnswer | Promise<ElicitAnswer>;

export interface CallResult {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

export interface ListedTool {
  name: string;
  inputSchema: unknown;
}

/** Every page of tools/list, through whichever SDK client the variant uses. */
async function allTools(
  list: (cursor?: string) => Promise<{ tools: Array<{ name: string; inputSchema: unknown }>; nextCursor?: string }>,
): Promise<ListedTool[]> {
  const out: ListedTool[] = [];
  let cursor: string | undefined;
  // Bounded: a target that pages forever is not listed forever.
  for (let page = 0; page < 50; page++) {
    const r = await list(cursor);
    out.push(...r.tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })));
    if (!r.nextCursor) break;
    cursor = r.nextCursor;
  }
  return out;
}

export interface GateSession {
  received: Elicited[];
  toolCallIds: Array<string | number>;
  /** `timeoutMs`: how long the client waits for this call (default 30 s; the timeout check waits longer). */
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<CallResult>;
  /** The tools the target lists to this client (names and input schemas), every page. */
  listTools(): Promise<ListedTool[]>;
  /** The client goes away mid-call: ends its session (DELETE where the revision has one) and closes. */
  abandon(): Promise<void>;
  close(): Promise<void>;
}

const CALL_TIMEOUT_MS = 30_000;

function toResult(raw: unknown): CallResult {
  const r = raw as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  const content = (Array.isArray(r.content) ? r.content : []) as Array<{ text?: string }>;
  return {
    text: content.map((c) => c.text ?? "").join(""),
    structured: (r.structuredContent ?? {}) as Record<string, unknown>,
    isError: r.isError === true,
  };
}

export interface SessionOptions {
  /**
   * 2025-11-25: the client's first N answers to the server's elicitations are lost on the way back
   * (the handler answers, the transport drops the response): what a network cut after the person
   * accepted looks like to the server.
   */
  loseAnswers?: number;
}

export async function openSession(
  mcpUrl: string,
  token: string,
  variant: ClientVariant,
  answer: Answerer,
  options: SessionOptions = {},
): Promise<GateSession> {
  // The declared capability verbatim (`{}` stays `{}`); its JSON shape is all the SDK needs.
  const capabilities = (variant.elicitation === undefined ? {} : { elicitation: variant.elicitation }) as Record<string, never>;
  const received: Elicited[] = [];
  const toolCallIds: Array<string | number> = [];
  const headers = { authorization: `Bearer ${token}` };
  const handle = async (params: unknown) => {
    const p = params as Elicited;
    received.push(p);
    return answer(p);
  };
  if (variant.revision === "2026-07-28") {
    const client = new ModernClient(
      { name: variant.name, version: variant.version },
      { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    if (variant.elicitation !== undefined)
      client.setRequestHandler("elicitation/create", async (req) => (await handle(req.params)) as never);
    const modern = new ModernTransport(new URL(mcpUrl), { requestInit: { headers } });
    // The ids of its own tools/call requests (each retry of a call is a new request with a new id).
    const sendModern = modern.send.bind(modern);
    modern.send = async (...args: Parameters<typeof sendModern>) => {
      const m = args[0] as { method?: unknown; id?: unknown };
      if (m.method === "tools/call" && (typeof m.id === "string" || typeof m.id === "number")) toolCallIds.push(m.id);
      return sendModern(...args);
    };
    await client.connect(modern);
    return {
      received,
      toolCallIds,
      call: async (name, args = {}, timeoutMs = CALL_TIMEOUT_MS) =>
        toResult(await client.callTool({ name, arguments: args }, { timeout: timeoutMs })),
      listTools: () => allTools((cursor) => client.listTools(cursor ? { cursor } : {})),
      abandon: () => client.close(),
      close: () => client.close(),
    };
  }
  const client = new Client({ name: variant.name, version: variant.version }, { capabilities });
  if (variant.elicitation !== undefined) client.setRequestHandler(ElicitRequestSchema, async (req) => (await handle(req.params)) as never);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } });
  const send = transport.send.bind(transport);
  let toLose = options.loseAnswers ?? 0;
  transport.send = async (message: JSONRPCMessage, options) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) toolCallIds.push(message.id);
    // A response to the server's request (the elicitation answer) that never arrives.
    if (toLose > 0 && !("method" in message) && "result" in message) {
      toLose--;
      return;
    }
    return send(message, options);
  };
  await client.connect(transport);
  return {
    received,
    toolCallIds,
    call: async (name, args = {}, timeoutMs = CALL_TIMEOUT_MS) =>
      toResult(await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })),
    listTools: () => allTools((cursor) => client.listTools(cursor ? { cursor } : {})),
    abandon: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
    close: () => client.close(),
  };
}

/** Opens a session, runs `body`, always closes. */
export async function withSession<T>(
  mcpUrl: string,
  token: string,
  variant: ClientVariant,
  answer: Answerer,
  body: (s: GateSession) => Promise<T>,
): Promise<T> {
  const s = await openSession(mcpUrl, token, variant, answer);
  try {
    return await body(s);
  } finally {
    await s.close().catch(() => {});
  }
}
