// Which MCP revision an upstream speaks, and the right client for it. The SDK v2 client's own
// probe decides ('auto': `server/discover` first, the 2025 `initialize` as the fallback), so the
// gateway never guesses from names or headers. The verdict is kept per instance for a few minutes
// and shown on the upstream's health; a failed call forgets it, so an upstream that changed its
// revision is probed again on the next call. 2025-11-25 upstreams keep the v1 client
// (upstream-client.ts: sessions, elicitation/create, -32042, completion notifications); 2026-07-28
// upstreams get the v2 client (upstream-modern.ts: input_required results and retries).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Upstream } from "@/db/schema";
import { SERVER_VERSION } from "@/lib/policy/flows";
import type { AssertedIdentity } from "./identity-assertion";
import { describeFailure, upstreamTools, type ElicitHandler } from "./upstream-client";
import { recordContact } from "./upstream-health";
import { upstreamPool } from "./upstream-pool";
import { gatewayHeaders, listModernTools, MODERN_REVISION, openModernUpstream, type ForwardSession } from "./upstream-modern";

export const LEGACY_REVISION = "2025-11-25";
export type UpstreamRevision = typeof LEGACY_REVISION | typeof MODERN_REVISION;

const VERDICT_TTL_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 10_000;
const TOOLS_TTL_MS = 30_000;

const verdicts = new Map<string, { url: string; at: number; revision: Promise<UpstreamRevision> }>();

/** The revision this upstream speaks (probed, then cached briefly); an unreachable upstream throws. */
export function upstreamRevision(row: Upstream): Promise<UpstreamRevision> {
  const hit = verdicts.get(row.id);
  if (hit && hit.url === row.url && Date.now() - hit.at < VERDICT_TTL_MS) return hit.revision;
  const revision = probe(row);
  verdicts.set(row.id, { url: row.url, at: Date.now(), revision });
  revision.catch(() => verdicts.delete(row.id));
  return revision;
}

/** Forgets what was learnt about an upstream's revision (after a failed call, a registry change, in tests). */
export function forgetUpstreamRevision(id?: string): void {
  if (id) verdicts.delete(id);
  else verdicts.clear();
}

async function probe(row: Upstream): Promise<UpstreamRevision> {
  const started = performance.now();
  const client = new Client(
    { name: "elicitation-gateway", version: SERVER_VERSION },
    { capabilities: {}, versionNegotiation: { mode: "auto" } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(row.url), {
    requestInit: {
      headers: await gatewayHeaders(row, { subject: "gateway", tenant: "gateway", upstreamId: row.id, clientId: "" }),
      redirect: "error",
    },
  });
  try {
    await client.connect(transport, { timeout: PROBE_TIMEOUT_MS });
    const revision: UpstreamRevision = client.getProtocolEra() === "modern" ? MODERN_REVISION : LEGACY_REVISION;
    recordContact(row.id, { ok: true, latencyMs: performance.now() - started, revision });
    return revision;
  } catch (err) {
    recordContact(row.id, { ok: false, latencyMs: performance.now() - started, error: describeFailure(err) });
    throw err;
  } finally {
    // A 2025 upstream opened a session for the probe: end it (DELETE), as the v1 path does.
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
}

/** What a forwarded call wants to hear from its session, whatever the upstream's revision. */
export interface ForwardHandlers {
  elicit: ElicitHandler;
  completed: (elicitationId: string) => void;
  /** A transport error on the session (the caller decides whether it ends the call). */
  transportError: (err: Error) => void;
}

/**
 * The session a forwarded call runs on, in the upstream's revision: a 2025-11-25 session leased from
 * the pool (upstream-pool.ts: per person, tenant and client; requests on its streams routed to this
 * call), a fresh 2026-07-28 client otherwise (stateless: nothing to keep between calls).
 */
export async function openForwardSession(row: Upstream, who: AssertedIdentity, handlers: ForwardHandlers): Promise<ForwardSession> {
  if ((await upstreamRevision(row)) === MODERN_REVISION) return openModernUpstream(row, who, handlers.elicit, handlers.transportError);
  const lease = await upstreamPool().acquire(row, who, handlers);
  return {
    revision: LEGACY_REVISION,
    reused: lease.reused,
    callTool: async (name, args, signal) =>
      (await lease.run(() => lease.client.callTool({ name, arguments: args }, undefined, { signal, timeout: 2 ** 31 - 1 }))) as Awaited<
        ReturnType<ForwardSession["callTool"]>
      >,
    release: (opts) => lease.release(opts),
  };
}

const modernTools = new Map<string, { at: number; url: string; tools: Promise<Tool[]> }>();

/** The upstream's tools in its own revision (2025 ones through upstream-client.ts's cache). */
export async function toolsOfUpstream(row: Upstream): Promise<Tool[]> {
  if ((await upstreamRevision(row)) !== MODERN_REVISION) return upstreamTools(row);
  const hit = modernTools.get(row.id);
  if (hit && hit.url === row.url && Date.now() - hit.at < TOOLS_TTL_MS) return hit.tools;
  const started = performance.now();
  const tools = listModernTools(row).then(
    (list) => (
      recordContact(row.id, {
        ok: true,
        latencyMs: performance.now() - started,
        tools: list.tools.length,
        revision: MODERN_REVISION,
        notice: list.notice ?? null,
      }),
      list.tools
    ),
    (err: unknown) => {
      modernTools.delete(row.id);
      recordContact(row.id, { ok: false, latencyMs: performance.now() - started, error: describeFailure(err) });
      throw err;
    },
  );
  modernTools.set(row.id, { at: Date.now(), url: row.url, tools });
  return tools;
}

/** Forgets cached 2026-07-28 tool lists (after a registry change, and in tests). */
export function forgetModernTools(id?: string): void {
  if (id) modernTools.delete(id);
  else modernTools.clear();
}
