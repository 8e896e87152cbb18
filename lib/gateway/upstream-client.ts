// The gateway's client side for tool lists: one SDK v1 Client per listing (2025-11-25 to the upstream;
// forwarded calls use pooled sessions, upstream-pool.ts),
// authenticated with the gateway's own credential plus the caller's signed identity assertion, and
// declaring both elicitation modes so the upstream's questions reach the engine, which decides
// what the person actually sees. Tool lists are cached per upstream for a short time and each
// contact feeds the health the console shows (per instance, in memory).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Upstream } from "@/db/schema";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { IDENTITY_HEADER, signIdentityAssertion, type AssertedIdentity } from "./identity-assertion";
import { authOf } from "./registry";
import { onUpstreamChanged } from "./registry-events";
import { ToolListCollector } from "./tool-list-bounds";
import { upstreamAuthHeaders } from "./upstream-auth";
import { recordContact } from "./upstream-health";

export const CONNECT_TIMEOUT_MS = 10_000;
const TOOLS_TTL_MS = 30_000;
const FAILURE_TTL_MS = 5_000;

export type ElicitHandler = (params: ElicitRequest["params"], upstreamRequestId: string) => Promise<ElicitResult>;

export interface UpstreamSession {
  client: Client;
  close(): Promise<void>;
}

export async function openUpstream(
  row: Upstream,
  who: AssertedIdentity,
  handlers: { elicit?: ElicitHandler; completed?: (elicitationId: string) => void } = {},
): Promise<UpstreamSession> {
  const headers = { ...(await upstreamAuthHeaders(row.id, authOf(row))), [IDENTITY_HEADER]: await signIdentityAssertion(who) };
  const client = new Client(
    { name: "elicitation-gateway", version: SERVER_VERSION },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    // No handler (a tools/list contact): nothing is ever shown to anyone; the upstream gets a decline.
    if (!handlers.elicit) return { action: "decline" };
    return handlers.elicit(req.params, String(extra.requestId));
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => handlers.completed?.(n.params.elicitationId));
  const transport = new StreamableHTTPClientTransport(new URL(row.url), { requestInit: { headers, redirect: "error" } });
  await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  return {
    client,
    close: async () => {
      // Ends the upstream session (DELETE) so it does not hold state for a call that is over.
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

const toolCache = new Map<string, { at: number; url: string; tools: Promise<Tool[]> }>();

/** The upstream's tools (cached briefly); a failure is recorded in its health and rethrown. */
export function upstreamTools(row: Upstream): Promise<Tool[]> {
  const hit = toolCache.get(row.id);
  if (hit && hit.url === row.url && Date.now() - hit.at < TOOLS_TTL_MS) return hit.tools;
  const tools = fetchTools(row);
  toolCache.set(row.id, { at: Date.now(), url: row.url, tools });
  // A failure is remembered briefly too, so an unreachable upstream is not dialled on every request.
  tools.catch(() => toolCache.set(row.id, { at: Date.now() - TOOLS_TTL_MS + FAILURE_TTL_MS, url: row.url, tools }));
  return tools;
}

/** Forgets cached tool lists (after a registry change, and in tests). */
export function forgetUpstreamTools(id?: string): void {
  if (id) toolCache.delete(id);
  else toolCache.clear();
}

// A change on this instance is seen at once (other instances within TOOLS_TTL_MS).
onUpstreamChanged((id) => forgetUpstreamTools(id));

async function fetchTools(row: Upstream): Promise<Tool[]> {
  const started = performance.now();
  let session: UpstreamSession | undefined;
  try {
    // Listing is not done on anyone's behalf: the assertion names the gateway itself.
    session = await openUpstream(row, { subject: "gateway", tenant: "gateway", upstreamId: row.id, clientId: "" });
    // Bounded in total and within a page (tool-list-bounds.ts): the upstream decides what it lists.
    const list = new ToolListCollector();
    let cursor: string | undefined;
    do {
      const page = await session.client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
      list.add(page.tools);
      cursor = page.nextCursor;
    } while (cursor && !list.full);
    const { tools, notice } = list.result(Boolean(cursor));
    recordContact(row.id, { ok: true, latencyMs: performance.now() - started, tools: tools.length, notice: notice ?? null });
    return tools;
  } catch (err) {
    recordContact(row.id, { ok: false, latencyMs: performance.now() - started, error: describeFailure(err) });
    throw err;
  } finally {
    await session?.close();
  }
}

/** A failure as one plain line naming its kind, never an upstream's body or a header value. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return "unknown error";
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === "string") return `unreachable (${cause.code})`;
  if (err.name === "UpstreamAuthError") return err.message;
  if (typeof code === "number") return `protocol error ${code}`;
  if (/fetch failed|ECONNREFUSED|ENOTFOUND/i.test(err.message)) return "unreachable";
  if (/timed? ?out/i.test(err.message)) return "timed out";
  return err.name === "Error" ? "failed" : err.name;
}
