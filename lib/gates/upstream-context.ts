// What a gate run of an upstream tool's flow knows (gateway mode), and one call of that tool
// through the target's gateway: the client's view (result, every elicitation it was shown, its
// tools/call ids) and, with the target's store, the records the engine kept for the elicitations
// the upstream sent during that call (found by the call's fresh test subject and the upstream).
// Every call a gate makes is kept in `seen`, so phishing, recovery and accessibility judge every
// elicitation the upstream sent in the whole run, not one sample.
import { and, eq } from "drizzle-orm";
import { elicitationRecords } from "@/db/schema";
import type { ClientProfileUsed, ClientVariant } from "./client-variants";
import { withSession, type Answerer, type CallResult, type Elicited } from "./mcp-session";
import type { GateTarget, TokenSource } from "./target";
import type { UpstreamTool } from "./upstream-tool";

export interface UpstreamRecordSeen {
  id: string;
  mode: string;
  state: string;
  routeDecision: string;
  routeReason: string;
  requestMethod: string;
  requestId: string;
  toolName: string;
  upstreamRequestId: string | null;
  /** URL mode: the origin of the link the upstream sent. */
  targetOrigin: string | null;
}

export interface UpstreamCallSeen {
  variant: ClientVariant;
  result: CallResult;
  received: Elicited[];
  toolCallIds: Array<string | number>;
  /** Null when the target's store is not reachable (the engine's records cannot be read). */
  records: UpstreamRecordSeen[] | null;
}

export interface UpstreamGateContext {
  flow: import("@/db/schema").Flow;
  tool: UpstreamTool;
  profile: ClientProfileUsed;
  target: GateTarget;
  tokens: TokenSource;
  runId: string;
  seen: UpstreamCallSeen[];
}

/** Why the engine's records of this run cannot be read, or null when they can. */
export function recordsUnavailable(ctx: Pick<UpstreamGateContext, "target" | "tokens">): string | null {
  if (!ctx.target.db) return "the records are read from the target's store (no DATABASE_URL given)";
  if (ctx.tokens.kind === "given")
    return "with a given token (another identity provider) the gate does not know the test subject whose records to read";
  return null;
}

/** Answers as a person would without knowing the tool: a minimal valid form, a declined link. */
export function answerWith(form: (schema: unknown) => Record<string, unknown>): Answerer {
  return (req) => (req.mode === "url" ? { action: "decline" } : { action: "accept", content: form(req.requestedSchema) });
}

export async function callTool(
  ctx: UpstreamGateContext,
  v: ClientVariant,
  label: string,
  args: Record<string, unknown>,
  answer: Answerer,
): Promise<UpstreamCallSeen> {
  const { token, subject } = await ctx.tokens.fresh(label);
  const { result, received, toolCallIds } = await withSession(ctx.target.mcpUrl, token, v, answer, async (s) => ({
    result: await s.call(ctx.tool.exposedName, args),
    received: s.received,
    toolCallIds: s.toolCallIds,
  }));
  // With a given token the gate does not know the subject whose records to read: none are read
  // (the checks that need them say why), rather than a lookup that finds nothing and looks clean.
  const db = recordsUnavailable(ctx) ? undefined : ctx.target.db;
  const records = db
    ? await db
        .select({
          id: elicitationRecords.id,
          mode: elicitationRecords.mode,
          state: elicitationRecords.state,
          routeDecision: elicitationRecords.routeDecision,
          routeReason: elicitationRecords.routeReason,
          requestMethod: elicitationRecords.requestMethod,
          requestId: elicitationRecords.requestId,
          toolName: elicitationRecords.toolName,
          upstreamRequestId: elicitationRecords.upstreamRequestId,
          targetOrigin: elicitationRecords.targetOrigin,
        })
        .from(elicitationRecords)
        .where(and(eq(elicitationRecords.subject, subject), eq(elicitationRecords.upstreamId, ctx.tool.upstream.id)))
    : null;
  const seen: UpstreamCallSeen = { variant: v, result, received, toolCallIds, records };
  ctx.seen.push(seen);
  return seen;
}
