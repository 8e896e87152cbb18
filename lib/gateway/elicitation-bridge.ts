// Every elicitation an upstream sends goes through the engine before a person sees anything:
// - form: the engine's askForm (cool-down, linter, router from the client's declared modes and the
//   policy in force incl. the `upstream:ID` kill switch, record, send on the client's wire, then the
//   answer re-validated against the schema the upstream sent plus the credential scan). Only a
//   valid accepted answer is forwarded; a blocked form is declined to the upstream and explained to
//   the client in plain words.
// - url: the cool-down after a decline (as for forms), the message linter (no second link, no
//   look-alike host, no request for a secret, bounded size: red team F2), the URL check, the
//   upstream's own origin allowlist, the policy, the client's URL mode; the client sees our record
//   id as the elicitationId, never the upstream's.
// One call shows one question at a time (red team F3): a 2025 upstream may send many
// elicitation/create at once within one tools/call; they wait their turn here, after the per-call
// budget (ask-budget.ts) declined everything past it, so a person never faces a pile of prompts.
// The record names the upstream and its request id; no value is written anywhere.
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { isProduction } from "@/lib/config/app-env";
import { hasNoControlCharacters } from "@/lib/http/params";
import { countPreventedRepeat, recentRefusal } from "@/lib/elicitation/cooldown";
import { askForm, recordBasics, type AskContext, type AskOutcome } from "@/lib/elicitation/engine";
import { lintLinkMessage } from "@/lib/elicitation/lint";
import type { FieldNeed, FormSchema } from "@/lib/elicitation/needs";
import { insertRecord, newRecordId, transition } from "@/lib/elicitation/records";
import { policyBlock, type RouteDecision } from "@/lib/elicitation/router";
import { CLIENT_DISCONNECTED, WireAbortedError, WireDisconnectedError, WireTimeoutError } from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import { policyView } from "@/lib/policy/policy-view";
import { checkUrl } from "@/lib/policy/url-check";
import { MAX_ASK_BYTES, MAX_ASKS_PER_CALL, takeAsk, withinAskSize } from "./ask-budget";

export interface BridgeCall {
  /** The engine context of the forwarded call, without `upstream` (set per elicitation). */
  ask: AskContext;
  upstream: { id: string; displayName: string; tool: string; urlOrigins: readonly string[] };
  /** Plain explanations for the client, appended to the tool's result. */
  notes: string[];
  /** Upstream elicitationId -> our record id (URL mode), for its completion notification. */
  urlIds: Map<string, string>;
  /** Counts asks in flight with a person: the upstream's silence timer is paused meanwhile. */
  waiting: { count: number };
}

export async function bridgeElicitation(
  call: BridgeCall,
  params: ElicitRequest["params"],
  upstreamRequestId: string,
): Promise<ElicitResult> {
  const ask: AskContext = { ...call.ask, upstream: { id: call.upstream.id, requestId: upstreamRequestId } };
  const who = `${call.upstream.displayName} (${call.upstream.id})`;
  // A flood or an oversized request is answered here, before the engine spends a record on it.
  if (!withinAskSize(params)) {
    logger.warn({ event: "gateway.ask_refused", upstream: call.upstream.id, reason: "oversized" }, "upstream elicitation refused");
    call.notes.push(
      `${who} sent a request for input larger than ${MAX_ASK_BYTES / 1024} KiB; the gateway did not show it and told the server you declined.`,
    );
    return { action: "decline" };
  }
  if (!takeAsk(call)) {
    logger.warn({ event: "gateway.ask_refused", upstream: call.upstream.id, reason: "budget" }, "upstream elicitation refused");
    if (!call.notes.some((n) => n.includes("more than")))
      call.notes.push(
        `${who} asked for input more than ${MAX_ASKS_PER_CALL} times in one call; the gateway declined the rest without showing them.`,
      );
    return { action: "decline" };
  }
  call.waiting.count++;
  try {
    return await oneAtATime(call, () => {
      if (params.mode === "url") return bridgeUrl(call, ask, params);
      return bridgeForm(
        call,
        ask,
        { message: params.message, requestedSchema: params.requestedSchema as unknown as FormSchema },
        upstreamRequestId,
      );
    });
  } finally {
    call.waiting.count--;
  }
}

// The tail of each call's queue of asks; an ask starts when the one before it has settled.
const queues = new WeakMap<BridgeCall, Promise<unknown>>();

function oneAtATime<T>(call: BridgeCall, run: () => Promise<T>): Promise<T> {
  const turn = (queues.get(call) ?? Promise.resolve()).then(run);
  queues.set(
    call,
    turn.catch(() => {}),
  );
  return turn;
}

async function bridgeForm(
  call: BridgeCall,
  ask: AskContext,
  params: { message: string; requestedSchema: FormSchema },
  upstreamRequestId: string,
): Promise<ElicitResult> {
  // Field names are stored (never values); a name with control characters is refused before any write.
  const names = Object.keys(params.requestedSchema?.properties ?? {});
  if (names.some((n) => !hasNoControlCharacters(n) || n.length > 200)) {
    call.notes.push(
      `The gateway did not show a form from ${call.upstream.displayName} (${call.upstream.id}): its field names are malformed. The server was told you declined.`,
    );
    return { action: "decline" };
  }
  const need: FieldNeed = {
    kind: "field",
    key: `upstream-${upstreamRequestId}`,
    purpose: `${call.upstream.displayName}: ${call.upstream.tool}`,
    message: params.message,
    schema: params.requestedSchema,
  };
  const outcome: AskOutcome = await askForm(ask, need);
  const who = `${call.upstream.displayName} (${call.upstream.id})`;
  switch (outcome.status) {
    case "answered":
      return { action: "accept", content: outcome.content as ElicitResult["content"] };
    case "invalid":
      call.notes.push(
        `Your answer to ${who} did not pass the gateway's checks (${[...new Set(outcome.errors.map((e) => `${e.field}: ${e.keyword}`))].join(", ")}); it was not passed on.`,
      );
      return { action: "cancel" };
    case "blocked":
      call.notes.push(`The gateway did not show a form from ${who}: ${outcome.reason}. The server was told you declined.`);
      return { action: "decline" };
    case "fallback":
      call.notes.push(`${who} asked for input, but your client cannot show forms; the server was told you declined.`);
      return { action: "decline" };
    case "repeat_prevented":
      call.notes.push(
        `${who} asked again after you ${outcome.previous} a moment ago; the gateway answered for you instead of asking again.`,
      );
      return { action: outcome.previous === "declined" ? "decline" : "cancel" };
    case "declined":
      return { action: "decline" };
    default:
      return { action: "cancel" };
  }
}

function urlDecision(
  call: BridgeCall,
  ask: AskContext,
  params: { message: string; url: string },
  blocked: RouteDecision | undefined,
): RouteDecision {
  if (blocked) return blocked;
  const url = params.url;
  const lint = lintLinkMessage(typeof params.message === "string" ? params.message : "");
  if (lint.verdict === "block")
    return { route: "blocked", reason: `message lint: ${[...new Set(lint.reasons.map((r) => r.code))].join(", ")}` };
  const check = checkUrl(url, { dev: !isProduction() });
  if (check.verdict !== "allow") return { route: "blocked", reason: `URL check: ${check.reasons.map((r) => r.code).join(", ")}` };
  const origin = new URL(url).origin;
  if (!call.upstream.urlOrigins.includes(origin))
    return { route: "blocked", reason: `origin ${origin} is not on upstream ${call.upstream.id}'s allowlist` };
  if (!ask.session.modes.url) return { route: "fallback", reason: "client declared no URL mode" };
  return { route: "url", reason: "client declared URL mode; the link passed the URL check and the upstream's allowlist" };
}

async function bridgeUrl(
  call: BridgeCall,
  ask: AskContext,
  params: { message: string; url: string; elicitationId: string },
): Promise<ElicitResult> {
  const { db } = ask;
  // After a person declined or cancelled, the same tool does not ask again within the cool-down,
  // whether the earlier ask was a form or a link (the form path checks it in askForm).
  const earlier = await recentRefusal(db, {
    subject: ask.subject,
    tenantId: ask.tenantId,
    toolName: ask.request.toolName,
    cooldownMs: ask.config.cooldownMs,
  });
  if (earlier) {
    await countPreventedRepeat(db, earlier.id);
    call.notes.push(
      `${call.upstream.displayName} (${call.upstream.id}) asked again after you ${earlier.state} a moment ago; the gateway answered for you instead of asking again.`,
    );
    return { action: earlier.state === "declined" ? "decline" : "cancel" };
  }
  const view = await policyView(ask.policy, ask.flow, ask.subject, call.upstream.id);
  const decision = urlDecision(call, ask, params, policyBlock(view, "url"));
  const id = newRecordId();
  const origin = URL.canParse(params.url) ? new URL(params.url).origin : null;
  const draft = {
    ...recordBasics(ask, id, `${call.upstream.displayName}: ${call.upstream.tool}`, decision),
    mode: "url" as const,
    needKind: "grant" as const,
    // Only an origin that passed the check is kept; a rejected URL is not stored at all.
    targetOrigin: decision.route === "url" ? origin : null,
    expiresAt: new Date(Date.now() + ask.config.formTimeoutMs),
  };
  logger.info(
    { event: "gateway.url_decided", record: id, upstream: call.upstream.id, route: decision.route, reason: decision.reason },
    "upstream URL elicitation routed",
  );
  const who = `${call.upstream.displayName} (${call.upstream.id})`;
  if (decision.route !== "url") {
    await insertRecord(db, draft, "not_sent");
    call.notes.push(
      decision.route === "fallback"
        ? `${who} asked you to open a link, but your client cannot show links; the server was told you declined.`
        : `The gateway did not show a link from ${who}: ${decision.reason}. The server was told you declined.`,
    );
    return { action: "decline" };
  }
  await insertRecord(db, draft, "sent");
  try {
    const answer = await ask.wire.askUrl(
      { message: params.message, elicitationId: id, url: params.url },
      { timeoutMs: ask.config.formTimeoutMs, step: { recordId: id, needKey: `upstream-url-${id}` } },
    );
    const respondedAt = new Date();
    if (answer.action === "accept") {
      const moved = await transition(db, id, {
        move: "answer",
        to: "accepted",
        actor: { type: "subject", id: ask.subject },
        set: { respondedAt, ...(answer.droppedContent ? { droppedContentCount: 1 } : {}) },
      });
      if (!moved) {
        // Revoked (kill switch, operator) while the person was deciding: the upstream is not told yes.
        call.notes.push(`The link from ${who} was withdrawn by an operator before you accepted it; the server was told you cancelled.`);
        return { action: "cancel" };
      }
      call.urlIds.set(params.elicitationId, id);
      return { action: "accept" };
    }
    await transition(db, id, {
      move: "answer",
      to: answer.action === "decline" ? "declined" : "cancelled",
      actor: { type: "subject", id: ask.subject },
      set: { respondedAt },
    });
    return { action: answer.action };
  } catch (err) {
    if (err instanceof WireTimeoutError)
      await transition(db, id, { move: "answer", to: "timed_out", reason: "no answer within the timeout" });
    else if (err instanceof WireAbortedError)
      await transition(db, id, {
        move: "answer",
        to: "cancelled",
        reason: err instanceof WireDisconnectedError ? CLIENT_DISCONNECTED : "the originating request was cancelled",
      });
    else await transition(db, id, { move: "answer", to: "failed", reason: "sending the request failed" });
    return { action: "cancel" };
  }
}
