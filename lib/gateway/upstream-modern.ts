// The gateway as a client of an upstream that speaks 2026-07-28 (stateless, multi-round-trip):
// the SDK v2 Client pinned to that revision. Such an upstream asks for input by answering
// `tools/call` with an `input_required` result; the v2 client hands each embedded request to the
// same `elicitation/create` handler a 2025 session would use (so the engine governs it exactly as
// an upstream's elicitation/create: lint, route, record, re-validate, kill switch, audit) and
// retries the call with the answers and the upstream's requestState echoed byte for byte (the
// SDK's driver; the gateway never reads, stores or alters that state). The embedded requests of
// one round are asked one at a time: a person answers one question after another, and a client
// on the other side may hold only one open question per call.
import { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpError, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Upstream } from "@/db/schema";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { IDENTITY_HEADER, signIdentityAssertion, type AssertedIdentity } from "./identity-assertion";
import { authOf } from "./registry";
import { ToolListCollector, type ToolListBound } from "./tool-list-bounds";
import { upstreamAuthHeaders } from "./upstream-auth";

export const MODERN_REVISION = "2026-07-28";
/** Rounds of input one forwarded call may take before the gateway gives up on the upstream. */
export const MAX_INPUT_ROUNDS = 10;
const CONNECT_TIMEOUT_MS = 10_000;

export type ModernElicitHandler = (params: ElicitRequest["params"], upstreamRequestId: string) => Promise<ElicitResult>;

/** A failure of the upstream in plain words (its message is what the client and the health show). */
export class UpstreamPlainError extends Error {
  override name = "UpstreamPlainError";
}

/**
 * The v2 client's errors in the terms forward-call.ts already handles: a JSON-RPC error from the
 * upstream becomes the v1 McpError (same code and data), too many rounds a plain failure.
 */
function asForwardError(err: unknown): unknown {
  if (err instanceof ProtocolError) return new McpError(err.code, err.message, err.data);
  if (err instanceof SdkError && err.code === SdkErrorCode.InputRequiredRoundsExceeded)
    return new UpstreamPlainError(`it asked for input more than ${MAX_INPUT_ROUNDS} rounds in one call`);
  return err;
}

/** What forward-call.ts needs of an upstream session, whatever revision it speaks. */
export interface ForwardSession {
  revision: string;
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  /** Whether the session was already open (a pooled one the upstream forgot answers 404: retry once). */
  reused: boolean;
  /** Ends the call's use of the session; `broken` drops a pooled one (any error on the call). */
  release(opts?: { broken?: boolean }): Promise<void>;
}

/** The gateway's own credential plus the caller's signed identity: never the client's token. */
export async function gatewayHeaders(row: Upstream, who: AssertedIdentity): Promise<Record<string, string>> {
  return { ...(await upstreamAuthHeaders(row.id, authOf(row))), [IDENTITY_HEADER]: await signIdentityAssertion(who) };
}

async function connectModern(
  row: Upstream,
  who: AssertedIdentity,
  elicit?: ModernElicitHandler,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers = await gatewayHeaders(row, who);
  const client = new Client(
    { name: "elicitation-gateway", version: SERVER_VERSION },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: MODERN_REVISION } },
      inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
    },
  );
  let queue: Promise<unknown> = Promise.resolve();
  client.setRequestHandler("elicitation/create", async (req, ctx) => {
    // No handler (a listing contact): nothing is shown to anyone; the upstream gets a decline.
    if (!elicit) return { action: "decline" };
    const turn = queue.then(() => elicit(req.params as unknown as ElicitRequest["params"], String(ctx.mcpReq.id)));
    queue = turn.catch(() => {});
    return (await turn) as never;
  });
  const transport = new StreamableHTTPClientTransport(new URL(row.url), { requestInit: { headers, redirect: "error" } });
  await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  return { client, transport };
}

export async function openModernUpstream(
  row: Upstream,
  who: AssertedIdentity,
  elicit: ModernElicitHandler,
  transportError?: (err: Error) => void,
): Promise<ForwardSession> {
  const { client } = await connectModern(row, who, elicit);
  // Transport errors after which no answer can come (the caller fails the call).
  if (transportError) client.onerror = transportError;
  return {
    revision: MODERN_REVISION,
    reused: false,
    async callTool(name, args, signal) {
      // No per-leg timeout: the gateway's own watchdog bounds the upstream's silence, not a person's answer.
      try {
        return (await client.callTool({ name, arguments: args }, { signal, timeout: 2 ** 31 - 1 })) as unknown as CallToolResult;
      } catch (err) {
        throw asForwardError(err);
      }
    },
    // Stateless upstreams: nothing worth pooling, a call's client is closed with it.
    release: () => client.close().catch(() => {}),
  };
}

/** The tools of a 2026-07-28 upstream (its pages, bounded like the 2025 listing: tool-list-bounds.ts). */
export async function listModernTools(row: Upstream): Promise<ToolListBound> {
  const { client } = await connectModern(row, { subject: "gateway", tenant: "gateway", upstreamId: row.id, clientId: "" });
  try {
    const list = new ToolListCollector();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
      list.add(page.tools as unknown as Tool[]);
      cursor = page.nextCursor;
    } while (cursor && !list.full);
    return list.result(Boolean(cursor));
  } finally {
    await client.close().catch(() => {});
  }
}
