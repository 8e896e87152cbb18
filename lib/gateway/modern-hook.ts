// Upstream tools for 2026-07-28 clients (lib/mcp/modern/endpoint.ts builds one SDK v2 server per
// request and calls this). This revision has no server-to-client request, so an upstream's
// elicitation is bridged with multi-round-trip requests: the forwarded call keeps running on this
// instance, parked in memory, while the client gets an `input_required` result whose requestState
// is sealed to the caller, the tool, the arguments and the record; the client's retry (verified by
// the state gate before dispatch) hands its answer to the parked call, which then continues with
// the engine's re-validation and the upstream's next step. Sticky: the retry must reach the same
// instance (route by the requestState or the subject; README "Gateway mode"). A retry that reaches
// another instance, or comes after a restart, finds nothing parked: the record is closed as failed
// with that reason and the client is told to call again; a parked call nobody resumes ends at the
// form timeout (record timed_out, the upstream gets a cancel).
import {
  fromJsonSchema,
  inputRequired,
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CallToolResult as V1CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import type { DeclaredElicitation, DeclaredModes } from "@/lib/elicitation/capabilities";
import { engineConfig } from "@/lib/elicitation/config";
import { transition } from "@/lib/elicitation/records";
import {
  WireTimeoutError,
  type FormAnswer,
  type ResumedAnswer,
  type SuspendedAsk,
  type UrlAnswer,
  type WireAdapter,
} from "@/lib/elicitation/wire";
import { argumentsHash, sealRequestState } from "@/lib/mcp/request-state";
import type { PolicySource } from "@/lib/policy/policy-source";
import type { Flow } from "@/db/schema";
import { forwardToolCall } from "./forward-call";
import { asListed, gatewayTools } from "./legacy-hook";
import { parseExposedName } from "./tool-names";

type Event = { kind: "result"; result: V1CallToolResult } | { kind: "ask"; ask: SuspendedAsk };

interface Parked {
  next(): Promise<Event>;
  deliver(answer: FormAnswer | UrlAnswer): void;
}

// Record id -> the forwarded call waiting for that record's answer, on this instance only.
const parked = new Map<string, Parked>();

export interface ModernGatewayContext {
  db: Db;
  policy: PolicySource;
  principal: McpPrincipal;
  stateKey: Buffer;
  resume?: ResumedAnswer;
  facts(rctx: ServerContext): {
    client?: { name: string; version: string };
    protocolVersion: string;
    modes: DeclaredModes;
    declared: DeclaredElicitation | null;
  };
  flowFor(workflow: string): Promise<Flow>;
}

/** Whether a 2026-07-28 request needs the upstream tools at all: a listing, or a call of a namespaced tool. */
export function wantsGatewayTools(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method === "tools/list") return true;
  return method === "tools/call" && typeof params?.name === "string" && parseExposedName(params.name) !== undefined;
}

/** Registers this tenant's upstream tools on a per-request v2 server, their JSON Schemas unchanged. */
export async function attachModernGateway(server: McpServer, ctx: ModernGatewayContext): Promise<void> {
  for (const { row, tool } of await gatewayTools(ctx.db, ctx.principal.tenant)) {
    const listed = asListed(row, tool);
    server.registerTool(
      listed.name,
      {
        title: listed.title,
        description: listed.description,
        inputSchema: fromJsonSchema<Record<string, unknown>>(tool.inputSchema as never),
        annotations: tool.annotations,
      },
      async (args, rctx) => callOrResume(ctx, rctx, listed.name, row, tool.name, args ?? {}),
    );
  }
}

async function callOrResume(
  ctx: ModernGatewayContext,
  rctx: ServerContext,
  exposed: string,
  row: Parameters<typeof forwardToolCall>[1],
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult | InputRequiredResult> {
  const argsHash = argumentsHash(args);
  let call: Parked;
  if (ctx.resume) {
    const waiting = parked.get(ctx.resume.recordId);
    if (!waiting) {
      // Verified state, but the call it belongs to is not here (another instance, or a restart).
      await transition(ctx.db, ctx.resume.recordId, {
        move: "endLink",
        to: "failed",
        reason: "the upstream call waiting for this answer is not on this instance",
      });
      return {
        content: [
          {
            type: "text",
            text: `Not done: the upstream call that asked for this answer is no longer waiting (it ran on another instance, or that instance restarted). Call ${exposed} again.`,
          },
        ],
        isError: true,
      };
    }
    parked.delete(ctx.resume.recordId);
    waiting.deliver(ctx.resume.answer);
    call = waiting;
  } else {
    call = start(ctx, rctx, row, tool, args);
  }
  const event = await call.next();
  if (event.kind === "result") return event.result as unknown as CallToolResult;
  parked.set(event.ask.recordId, call);
  const request =
    event.ask.kind === "form"
      ? inputRequired.elicit({
          mode: "form",
          message: event.ask.params.message,
          requestedSchema: event.ask.params.requestedSchema as never,
        })
      : inputRequired.elicitUrl({ message: event.ask.params.message, url: event.ask.params.url });
  const expiresAt = Date.now() + engineConfig().formTimeoutMs;
  const requestState = sealRequestState(ctx.stateKey, {
    subject: ctx.principal.subject,
    tenant: ctx.principal.tenant,
    clientId: ctx.principal.clientId,
    tool: exposed,
    argsHash,
    recordId: event.ask.recordId,
    needKey: event.ask.needKey,
    kind: event.ask.kind,
    expiresAt,
  });
  return inputRequired({ inputRequests: { [event.ask.needKey]: request }, requestState });
}

/** Starts the forwarded call in the background; its asks and its result arrive as events. */
function start(
  ctx: ModernGatewayContext,
  rctx: ServerContext,
  row: Parameters<typeof forwardToolCall>[1],
  tool: string,
  args: Record<string, unknown>,
): Parked {
  const queue: Event[] = [];
  let wake: (() => void) | undefined;
  let answer: ((a: FormAnswer | UrlAnswer) => void) | undefined;
  const push = (e: Event) => {
    queue.push(e);
    wake?.();
  };
  const ask = <A extends FormAnswer | UrlAnswer>(s: SuspendedAsk, timeoutMs: number, signal: AbortSignal) =>
    new Promise<A>((resolve, reject) => {
      const timer = setTimeout(() => {
        parked.delete(s.recordId);
        reject(new WireTimeoutError("no answer within the timeout"));
      }, timeoutMs);
      const done = () => clearTimeout(timer);
      signal.addEventListener("abort", () => (done(), parked.delete(s.recordId), reject(new WireTimeoutError("the call ended"))), {
        once: true,
      });
      answer = (a) => (done(), resolve(a as A));
      push({ kind: "ask", ask: s });
    });
  const wireFor = (signal: AbortSignal): WireAdapter => ({
    askForm: (params, o) => ask<FormAnswer>({ kind: "form", ...o.step, params }, o.timeoutMs, signal),
    askUrl: (params, o) =>
      ask<UrlAnswer>({ kind: "url", ...o.step, params: { message: params.message, url: params.url } }, o.timeoutMs, signal),
  });
  const { client, protocolVersion, modes, declared } = ctx.facts(rctx);
  // Not tied to this HTTP request: the call outlives it while the person answers.
  const detached = new AbortController();
  void forwardToolCall(
    {
      ask: {
        db: ctx.db,
        policy: ctx.policy,
        subject: ctx.principal.subject,
        tenantId: ctx.principal.tenant,
        session: {
          id: null,
          clientName: client?.name ?? "unknown",
          clientVersion: client?.version ?? "unknown",
          protocolVersion,
          modes,
          declared,
        },
        config: engineConfig(),
      },
      requestId: String(rctx.mcpReq.id),
      signal: detached.signal,
      clientId: ctx.principal.clientId,
      wireFor,
      flowFor: ctx.flowFor,
    },
    row,
    tool,
    args,
  )
    .then((result) => push({ kind: "result", result }))
    .catch(() =>
      push({ kind: "result", result: { content: [{ type: "text", text: "Not done: an internal error occurred." }], isError: true } }),
    );
  return {
    next: () =>
      new Promise<Event>((resolve) => {
        const take = () => {
          const e = queue.shift();
          if (e) {
            wake = undefined;
            resolve(e);
          } else wake = take;
        };
        take();
      }),
    deliver: (a) => answer?.(a),
  };
}

/**
 * Forgets every call parked on this instance, as a restart does (tests use it to play the retry
 * that reaches an instance which never saw the call). The forgotten asks end at their timeout.
 */
export function forgetParkedCalls(): number {
  const n = parked.size;
  parked.clear();
  return n;
}
