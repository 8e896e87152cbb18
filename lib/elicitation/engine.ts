// The elicitation engine: the only way a workflow asks a user for anything. For each need it
// checks the cool-down, lints the request, reads the policy in force, decides the route and writes
// the record, all before anything reaches the client; then it sends through the wire adapter,
// validates the answer itself (schema, credential shapes, domain rules) and records the outcome by
// field name and keyword. The answer's content is returned to the caller and kept nowhere else.
import { CLIENT_NAME_MAX, CLIENT_VERSION_MAX, observedText } from "@/lib/http/observed-text";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords, type Flow } from "@/db/schema";
import { gateFault } from "@/lib/config/gate-faults";
import { logger } from "@/lib/log/logger";
import type { PolicySource } from "@/lib/policy/policy-source";
import { policyView } from "@/lib/policy/policy-view";
import { policyBlock } from "./router";
import type { DeclaredElicitation, DeclaredModes } from "./capabilities";
import type { EngineConfig } from "./config";
import { countPreventedRepeat, recentRefusal } from "./cooldown";
import { scanContent } from "./credential-scan";
import { lintFormRequest } from "./lint";
import type { DomainIssue, FieldNeed } from "./needs";
import { insertRecord, newRecordId, transition, type RecordDraft } from "./records";
import { revokeRecords } from "./revoke";
import { decideRoute } from "./router";
import { schemaHash, validateAgainstSchema } from "./schema-validation";
import {
  CLIENT_DISCONNECTED,
  WireAbortedError,
  WireDisconnectedError,
  WireRefusedError,
  WireSuspendedError,
  WireTimeoutError,
  type FormAnswer,
  type WireAdapter,
} from "./wire";

export interface AskContext {
  db: Db;
  subject: string;
  tenantId: string;
  session: {
    id: string | null;
    clientName: string;
    clientVersion: string;
    protocolVersion: string;
    modes: DeclaredModes;
    /** The elicitation capability as declared for this request, bounded (capabilities.ts declaredElicitation); null = none. */
    declared: DeclaredElicitation | null;
  };
  request: { method: string; id: string; toolName: string };
  flow: Flow;
  /** Kill switches and flows in force (lib/policy/policy-source.ts). */
  policy: PolicySource;
  wire: WireAdapter;
  config: EngineConfig;
  /** Gateway mode: the upstream MCP server that asked, and its request's id (lib/gateway/). */
  upstream?: { id: string; requestId: string };
}

export type AskOutcome =
  | { status: "answered"; recordId: string; content: Record<string, unknown> }
  | { status: "invalid"; recordId: string; errors: DomainIssue[] }
  | { status: "declined" | "cancelled" | "timed_out"; recordId: string }
  | { status: "failed"; recordId: string; reason: string }
  | { status: "repeat_prevented"; recordId: string; previous: "declined" | "cancelled" }
  | { status: "blocked" | "fallback"; recordId: string; reason: string }
  /** Stopped while the person was answering (kill switch, flow rollback, operator): the answer is not used. */
  | { status: "revoked"; recordId: string; reason: string };

/** What every record says about who asked, from where, and what the router decided. */
export function recordBasics(
  ctx: AskContext,
  id: string,
  purpose: string,
  decision: { route: RecordDraft["routeDecision"]; reason: string },
) {
  return {
    id,
    subject: ctx.subject,
    tenantId: ctx.tenantId,
    sessionId: ctx.session.id,
    // Self-declared observations, bounded before they are stored.
    clientName: observedText(ctx.session.clientName, CLIENT_NAME_MAX),
    clientVersion: observedText(ctx.session.clientVersion, CLIENT_VERSION_MAX),
    protocolVersion: ctx.session.protocolVersion,
    declaredElicitation: ctx.session.declared,
    requestMethod: ctx.request.method,
    requestId: ctx.request.id,
    toolName: ctx.request.toolName,
    flowId: ctx.flow.id,
    purpose,
    routeDecision: decision.route,
    routeReason: decision.reason,
    ...(ctx.upstream ? { upstreamId: ctx.upstream.id, upstreamRequestId: ctx.upstream.requestId } : {}),
  };
}

export async function askForm(ctx: AskContext, need: FieldNeed): Promise<AskOutcome> {
  const { db } = ctx;
  // A multi-round-trip retry carrying the answer to an earlier ask: continue at that record. The
  // cool-down, lint and route were decided when it was written; nothing new is written here.
  const resumed = ctx.wire.resumed?.("form", need.key);
  if (resumed?.kind === "form") return settleFormAnswer(ctx, need, resumed.recordId, resumed.answer);
  if (resumed?.kind === "settled") return reuseSettledAnswer(ctx, need, resumed.recordId, resumed.content);

  const earlier = await recentRefusal(db, {
    subject: ctx.subject,
    tenantId: ctx.tenantId,
    toolName: ctx.request.toolName,
    cooldownMs: ctx.config.cooldownMs,
  });
  if (earlier) {
    await countPreventedRepeat(db, earlier.id);
    return { status: "repeat_prevented", recordId: earlier.id, previous: earlier.state as "declined" | "cancelled" };
  }

  const params = { message: need.message, requestedSchema: need.schema };
  const lint = lintFormRequest(params);
  const decision = decideRoute(need, ctx.session.modes, await policyView(ctx.policy, ctx.flow, ctx.subject, ctx.upstream?.id), {
    verdict: lint.verdict,
    codes: lint.reasons.map((r) => r.code),
  });
  const draft: RecordDraft = {
    ...recordBasics(ctx, newRecordId(), need.purpose, decision),
    mode: "form",
    needKind: "field",
    schemaHash: schemaHash(need.schema),
    fieldNames: Object.keys(need.schema.properties),
  };
  // Logs carry ids, routes, field names and keywords: never content.
  logger.info(
    {
      event: "elicitation.decided",
      record: draft.id,
      tool: draft.toolName,
      flow: ctx.flow.id,
      route: decision.route,
      reason: decision.reason,
    },
    "elicitation routed",
  );
  if (decision.route !== "form") {
    await insertRecord(db, draft, "not_sent", { lint: lint.reasons.map((r) => `${r.code}:${r.field ?? "-"}`) });
    // No form mode and no way round: a wire that can name the missing capability says so.
    if (decision.route === "fallback" && !ctx.flow.setupUrl)
      ctx.wire.unavailable?.({ kind: "form", recordId: draft.id, needKey: need.key, params });
    return { status: decision.route === "fallback" ? "fallback" : "blocked", recordId: draft.id, reason: decision.reason };
  }

  await insertRecord(db, draft, "sent");
  let answer;
  try {
    answer = await ctx.wire.askForm(params, { timeoutMs: ctx.config.formTimeoutMs, step: { recordId: draft.id, needKey: need.key } });
  } catch (err) {
    // Multi-round-trip: the call ends here and the record stays `sent` until the retry.
    if (err instanceof WireSuspendedError) throw err;
    if (err instanceof WireTimeoutError) {
      // A deliberate defect, only under GATE_TEST_FAULTS (refused in production): the contract gate must catch it.
      if (!gateFault("timeout-not-recorded"))
        await transition(db, draft.id, { move: "answer", to: "timed_out", reason: "no answer within the timeout" });
      return { status: "timed_out", recordId: draft.id };
    }
    if (err instanceof WireAbortedError) {
      const gone = err instanceof WireDisconnectedError;
      await transition(db, draft.id, {
        move: "answer",
        to: "cancelled",
        reason: gone ? CLIENT_DISCONNECTED : "the originating request was cancelled",
        // The record itself says the client went away, so the rollup and metrics count it apart from a person's cancel.
        ...(gone ? { actor: { type: "system" as const, id: "client-disconnect" }, set: { endReason: CLIENT_DISCONNECTED } } : {}),
      });
      return { status: "cancelled", recordId: draft.id };
    }
    const reason = err instanceof WireRefusedError ? err.message : "sending the request failed";
    await transition(db, draft.id, { move: "answer", to: "failed", reason });
    return { status: "failed", recordId: draft.id, reason };
  }
  return settleFormAnswer(ctx, need, draft.id, answer);
}

/** What a record in flight already answered says when a second answer for it arrives. */
const ALREADY_ANSWERED = "this request was already answered; call the tool again to start over";

/**
 * The policy read again when an answer arrives, before anything uses it: a kill switch engaged, or
 * the flow turned off, rolled back or moved out of this subject's cohort, while the person was
 * answering stops the call here, in either revision. (Engaging a switch or rolling back also
 * revokes pending records at once; this catches a record written while the change propagated.)
 */
async function stoppedSince(ctx: AskContext): Promise<string | undefined> {
  const initial = { fingerprint: ctx.flow.fingerprint, inputs: ctx.flow.fingerprintInputs };
  const flow = await ctx.policy.flow(ctx.flow.workflow, ctx.flow.profileId, initial);
  return policyBlock(await policyView(ctx.policy, flow, ctx.subject), "form")?.reason;
}

/** The record left `sent` before this answer could settle it: say why, in the caller's terms. */
async function endedMeanwhile(ctx: AskContext, recordId: string): Promise<AskOutcome> {
  const [row] = await ctx.db
    .select({ state: elicitationRecords.state })
    .from(elicitationRecords)
    .where(eq(elicitationRecords.id, recordId))
    .limit(1);
  if (row?.state === "revoked")
    return {
      status: "revoked",
      recordId,
      reason: "the request was stopped (a kill switch, a flow rollback or an operator) before the answer arrived",
    };
  return { status: "failed", recordId, reason: ALREADY_ANSWERED };
}

/**
 * Records the person's answer and validates accepted content exactly the same way whichever wire
 * carried it: the schema that was sent (no extra properties), credential shapes, the domain rules.
 * Whichever wire carried it, losing the race for the `sent` record (a concurrent replay, a
 * revocation, a timeout) means this answer is refused rather than used.
 */
async function settleFormAnswer(ctx: AskContext, need: FieldNeed, recordId: string, answer: FormAnswer): Promise<AskOutcome> {
  const { db } = ctx;
  const respondedAt = new Date();
  if (answer.action === "decline" || answer.action === "cancel") {
    const to = answer.action === "decline" ? "declined" : "cancelled";
    const moved = await transition(db, recordId, { move: "answer", to, actor: { type: "subject", id: ctx.subject }, set: { respondedAt } });
    if (!moved) return endedMeanwhile(ctx, recordId);
    return { status: to, recordId };
  }
  // Accepted: before the content is used, the policy must still allow this flow. If not, the
  // record is revoked (with its event and audit entry) and the answer goes nowhere.
  const stopped = await stoppedSince(ctx);
  if (stopped) {
    await revokeRecords(db, { type: "system", id: "policy" }, { ids: [recordId] }, `${stopped} (the answer arrived after it)`);
    logger.info({ event: "elicitation.stopped", record: recordId, reason: stopped }, "answer refused: policy changed while answering");
    return { status: "revoked", recordId, reason: stopped };
  }

  const content = answer.content ?? {};
  let errors: DomainIssue[] = validateAgainstSchema(need.schema, content);
  if (errors.length === 0) errors = scanContent(content);
  if (errors.length === 0 && need.validate) errors = await need.validate(content);
  if (errors.length > 0) {
    const moved = await transition(db, recordId, {
      move: "settleForm",
      to: "validation_failed",
      actor: { type: "subject", id: ctx.subject },
      set: { respondedAt, validationErrors: errors },
      detail: { fields: [...new Set(errors.map((e) => e.field))], keywords: [...new Set(errors.map((e) => e.keyword))] },
    });
    if (!moved) return endedMeanwhile(ctx, recordId);
    logger.info({ event: "elicitation.rejected", record: recordId, errors }, "answer rejected");
    return { status: "invalid", recordId, errors };
  }
  const moved = await transition(db, recordId, {
    move: "settleForm",
    to: "completed",
    actor: { type: "subject", id: ctx.subject },
    set: { respondedAt },
    detail: { fields: Object.keys(content) },
  });
  // Not `sent` any more: answered already (a replay), or revoked / timed out meanwhile. Either
  // way this answer is not used, in either revision.
  if (!moved) return endedMeanwhile(ctx, recordId);
  // A deliberate leak, only under GATE_TEST_FAULTS (refused in production): the privacy gate must catch it.
  if (gateFault("log-form-values")) logger.info({ event: "elicitation.fault" }, `answer ${JSON.stringify(content)}`);
  ctx.wire.settled?.({ needKey: need.key, recordId, content });
  return { status: "answered", recordId, content };
}

/**
 * An answer this call settled in an earlier round (multi-round-trip, from the verified sealed
 * state). Its record is already `completed`, so nothing is written; the content is checked again
 * by the same rules (a rule that changed meanwhile still applies), and the record must still be
 * this person's completed answer to this tool (an operator's revocation in between ends the call).
 */
async function reuseSettledAnswer(
  ctx: AskContext,
  need: FieldNeed,
  recordId: string,
  content: Record<string, unknown>,
): Promise<AskOutcome> {
  const [record] = await ctx.db
    .select({
      state: elicitationRecords.state,
      subject: elicitationRecords.subject,
      tenantId: elicitationRecords.tenantId,
      toolName: elicitationRecords.toolName,
    })
    .from(elicitationRecords)
    .where(eq(elicitationRecords.id, recordId))
    .limit(1);
  if (
    !record ||
    record.state !== "completed" ||
    record.subject !== ctx.subject ||
    record.tenantId !== ctx.tenantId ||
    record.toolName !== ctx.request.toolName
  ) {
    return {
      status: "failed",
      recordId,
      reason: `the earlier answer's request ended as ${record?.state ?? "unknown"}; call the tool again to start over`,
    };
  }
  // A switch engaged (or the flow stopped) since that round stops the call before the answer is used.
  const stopped = await stoppedSince(ctx);
  if (stopped) return { status: "revoked", recordId, reason: stopped };
  let errors: DomainIssue[] = validateAgainstSchema(need.schema, content);
  if (errors.length === 0) errors = scanContent(content);
  if (errors.length === 0 && need.validate) errors = await need.validate(content);
  if (errors.length > 0)
    return { status: "failed", recordId, reason: "the earlier answer no longer passes the rules; call the tool again to start over" };
  ctx.wire.settled?.({ needKey: need.key, recordId, content });
  return { status: "answered", recordId, content };
}
