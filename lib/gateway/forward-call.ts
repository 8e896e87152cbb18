// One forwarded tools/call: a session to the upstream in the revision it speaks (upstream-era.ts;
// 2025-11-25 sessions come from the pool, upstream-pool.ts, never shared between people) with the
// gateway's credential and the caller's signed identity on every request, hand every elicitation or input request it
// sends to the bridge (so the engine governs it), bridge a -32042 (url-required.ts: the links through
// the engine, then one retry after completion), and pass the upstream's result back with the
// gateway's plain notes appended. Whatever goes wrong upstream
// (unreachable, silent too long, a protocol error, its stream dropped in the middle of an
// elicitation) becomes a clear error result, and every record the call opened is closed with the
// reason: nothing is left in flight.
import { and, eq, gte, inArray } from "drizzle-orm";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { elicitationRecords, type Flow, type Upstream } from "@/db/schema";
import type { AskContext } from "@/lib/elicitation/engine";
import { transition } from "@/lib/elicitation/records";
import { UNFINISHED } from "@/lib/elicitation/record-states";
import type { WireAdapter } from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import { bridgeElicitation, type BridgeCall } from "./elicitation-bridge";
import { gatewayConfig } from "./gateway-config";
import { flowWorkflowName, exposedToolName } from "./tool-names";
import { describeFailure } from "./upstream-client";
import { forgetUpstreamRevision, openForwardSession, type ForwardHandlers } from "./upstream-era";
import { UpstreamPlainError, type ForwardSession } from "./upstream-modern";
import { bridgeUrlRequired, CompletionWatch, urlRequiredOf } from "./url-required";
import { recordContact } from "./upstream-health";

export interface GatewayCaller {
  ask: Omit<AskContext, "flow" | "wire" | "request" | "upstream">;
  /** The downstream request's id (the record's request id) and its abort signal. */
  requestId: string;
  signal: AbortSignal;
  /** The verified OAuth client id of the caller's token. */
  clientId: string;
  /** The client's wire, aborting on `signal` (the client's request or the upstream gone). */
  wireFor(signal: AbortSignal): WireAdapter;
  flowFor(workflow: string): Promise<Flow>;
  /** Tells the client a URL-mode elicitation finished (2025-11-25 completion notification). */
  notifyComplete?(recordId: string): void;
}

export class UpstreamFailure extends Error {
  override name = "UpstreamFailure";
}

// Transport errors after which no answer can arrive on this call.
const FATAL = /^(SSE stream disconnected|Maximum reconnection attempts|Failed to reconnect)/;

export async function forwardToolCall(
  caller: GatewayCaller,
  row: Upstream,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const exposed = exposedToolName(row.id, tool);
  const cfg = gatewayConfig();
  const upstreamGone = new AbortController();
  const signal = AbortSignal.any([caller.signal, upstreamGone.signal]);
  const flow = await caller.flowFor(flowWorkflowName(row.id, tool));
  const bridge: BridgeCall = {
    ask: { ...caller.ask, flow, wire: caller.wireFor(signal), request: { method: "tools/call", id: caller.requestId, toolName: exposed } },
    upstream: { id: row.id, displayName: row.displayName, tool, urlOrigins: row.urlOrigins },
    notes: [],
    urlIds: new Map(),
    waiting: { count: 0 },
  };
  const db = caller.ask.db;
  let quietSince = Date.now();
  let fail: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const started = performance.now();
  // Records of this call are found by what they say about it (an ask still waiting has not
  // returned its id yet when the upstream fails).
  const mine = {
    subject: caller.ask.subject,
    tenantId: caller.ask.tenantId,
    toolName: exposed,
    requestId: caller.requestId,
    upstreamId: row.id,
    since: new Date(),
  };
  let session: ForwardSession | undefined;
  let broken = false;
  // Records are written only when the upstream asks for something: a call that never did has none to close.
  let elicited = false;
  const watch = new CompletionWatch();
  // The upstream's silence is bounded, but not while a person is answering one of its questions.
  const watchdog = setInterval(
    () => {
      if (bridge.waiting.count > 0) quietSince = Date.now();
      else if (Date.now() - quietSince > cfg.upstreamTimeoutMs)
        fail(new UpstreamFailure(`no answer within ${Math.round(cfg.upstreamTimeoutMs / 1000)} s`));
    },
    Math.min(1000, cfg.upstreamTimeoutMs),
  );
  try {
    const who = { subject: caller.ask.subject, tenant: caller.ask.tenantId, upstreamId: row.id, clientId: caller.clientId };
    const handlers: ForwardHandlers = {
      elicit: async (params, upstreamRequestId) => {
        elicited = true;
        try {
          return await bridgeElicitation(bridge, params, upstreamRequestId);
        } finally {
          quietSince = Date.now();
        }
      },
      completed: (elicitationId) => {
        watch.completed(elicitationId);
        void completeUrl(caller, bridge, elicitationId);
      },
      transportError: (err) => {
        if (FATAL.test(err.message)) fail(new UpstreamFailure("the upstream dropped its stream"));
      },
    };
    let result: CallToolResult | undefined;
    // The upstream's own revision (upstream-era.ts): 2025-11-25 elicitation/create or 2026-07-28 input_required.
    // A pooled session the upstream has forgotten (restart, its own idle timeout) answers 404: the
    // spec's answer is a new session, and nothing reached the tool, so the call is tried once more.
    for (let round = 0, renewed = false; !result;) {
      session ??= await openForwardSession(row, who, handlers);
      const current = session;
      const call = current.callTool(tool, args, signal);
      call.catch(() => {});
      try {
        result = (await Promise.race([call, failed])) as CallToolResult;
      } catch (err) {
        if (!renewed && current.reused && sessionForgotten(err) && bridge.waiting.count === 0) {
          renewed = true;
          session = undefined;
          await current.release({ broken: true });
          continue;
        }
        // -32042: the upstream wants a link opened first (url-required.ts); anything else is a failure.
        const urls = urlRequiredOf(err);
        if (!urls) throw err;
        elicited = true;
        const outcome = await Promise.race([bridgeUrlRequired(bridge, urls, round++, { watch, signal, exposedName: exposed }), failed]);
        if (outcome.kind === "stop") {
          recordContact(row.id, { ok: true, latencyMs: performance.now() - started, revision: current.revision });
          await closeOpen(db, mine, "failed", "the upstream's required link was not completed");
          return outcome.result;
        }
        quietSince = Date.now();
      }
    }
    recordContact(row.id, { ok: true, latencyMs: performance.now() - started, revision: session!.revision });
    if (elicited) await closeOpen(db, mine, "completed", "the upstream finished the call");
    return withNotes(result, bridge.notes);
  } catch (err) {
    broken = true;
    const reason =
      err instanceof UpstreamFailure || err instanceof UpstreamPlainError
        ? err.message
        : err instanceof McpError
          ? `protocol error ${err.code}`
          : describeFailure(err);
    const clientLeft = caller.signal.aborted;
    // The next call probes the upstream's revision again (it may have been upgraded or replaced).
    if (!(err instanceof McpError)) forgetUpstreamRevision(row.id);
    // A JSON-RPC error is an answer: the upstream is reachable (the caller's arguments may be at fault).
    if (!clientLeft)
      recordContact(row.id, {
        ok: err instanceof McpError,
        latencyMs: performance.now() - started,
        ...(err instanceof McpError ? {} : { error: reason }),
      });
    // Records first, then the abort: an ask still waiting on the client ends as failed (upstream), not as a cancel.
    await closeOpen(db, mine, "failed", clientLeft ? "the client went away" : `upstream ${row.id} failed: ${reason}`);
    upstreamGone.abort();
    logger.warn({ event: "gateway.upstream_failed", upstream: row.id, tool, reason }, "forwarded call failed");
    if (clientLeft) throw err;
    return {
      content: [
        {
          type: "text",
          text: `Not done: upstream ${row.displayName} (${row.id}) failed: ${reason}.${bridge.notes.length ? " " + bridge.notes.join(" ") : ""}`,
        },
      ],
      structuredContent: { outcome: "upstream_failed", upstream: row.id, reason },
      isError: true,
    };
  } finally {
    clearInterval(watchdog);
    await session?.release({ broken });
  }
}

function sessionForgotten(err: unknown): boolean {
  return err instanceof StreamableHTTPError && err.code === 404;
}

async function completeUrl(caller: GatewayCaller, bridge: BridgeCall, upstreamElicitationId: string): Promise<void> {
  const id = bridge.urlIds.get(upstreamElicitationId);
  if (!id) return; // an unknown id is ignored, as the spec asks of clients
  if (await transition(caller.ask.db, id, { move: "upstreamSettle", to: "completed", reason: "the upstream reported completion" }))
    caller.notifyComplete?.(id);
}

/** Closes what the call left open: a URL flow the person accepted, an ask cut short. */
async function closeOpen(
  db: AskContext["db"],
  call: { subject: string; tenantId: string; toolName: string; requestId: string; upstreamId: string; since: Date },
  to: "completed" | "failed",
  reason: string,
): Promise<void> {
  const open = await db
    .select({ id: elicitationRecords.id })
    .from(elicitationRecords)
    .where(
      and(
        eq(elicitationRecords.subject, call.subject),
        eq(elicitationRecords.tenantId, call.tenantId),
        eq(elicitationRecords.toolName, call.toolName),
        eq(elicitationRecords.requestId, call.requestId),
        eq(elicitationRecords.upstreamId, call.upstreamId),
        gte(elicitationRecords.createdAt, call.since),
        inArray(elicitationRecords.state, [...UNFINISHED]),
      ),
    );
  for (const { id } of open) {
    await transition(db, id, { move: "upstreamSettle", to, reason });
    await transition(db, id, { move: "upstreamAbandon", to: "failed", reason });
  }
}

function withNotes(result: CallToolResult, notes: readonly string[]): CallToolResult {
  if (notes.length === 0) return result;
  return { ...result, content: [...(result.content ?? []), { type: "text", text: `[gateway] ${notes.join(" ")}` }] };
}
