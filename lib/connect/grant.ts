// The engine's URL-mode step for credentials, payments and third-party grants. Reconciles first,
// so a retried call never creates a second grant: an active connection is used; a pending,
// unexpired record for the same owner, tool and provider is offered again (same id); only then is
// a new record written and a URL elicitation sent. Nothing secret ever passes through the client.
import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { elicitationRecords } from "@/db/schema";
import { gateFault } from "@/lib/config/gate-faults";
import { recordBasics, type AskContext } from "@/lib/elicitation/engine";
import { countPreventedRepeat, recentRefusal } from "@/lib/elicitation/cooldown";
import type { SecretNeed } from "@/lib/elicitation/needs";
import { insertRecord, newRecordId, transition } from "@/lib/elicitation/records";
import { movableFrom } from "@/lib/elicitation/record-states";
import { decideRoute } from "@/lib/elicitation/router";
import {
  CLIENT_DISCONNECTED,
  WireAbortedError,
  WireDisconnectedError,
  WireSuspendedError,
  WireTimeoutError,
  type ResumedAnswer,
} from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import { policyView } from "@/lib/policy/policy-view";
import { checkUrl } from "@/lib/policy/url-check";
import { connectConfig } from "./config";
import { activeConnection } from "./connections";
import { assertRedirectAllowed, providerInfo, RegistryError } from "./registry";

export type GrantOutcome =
  | { status: "connected"; connectionId: number }
  /** `connectUrl`: the link, when this call did not show it (a client without URL mode). */
  | { status: "pending"; recordId: string; reused: boolean; connectUrl?: string }
  | { status: "declined" | "cancelled" | "timed_out"; recordId: string }
  | { status: "repeat_prevented"; recordId: string; previous: "declined" | "cancelled" }
  | { status: "blocked" | "fallback" | "failed"; recordId: string; reason: string };

export async function ensureGrant(ctx: AskContext, need: SecretNeed): Promise<GrantOutcome> {
  const { db } = ctx;
  if (!need.providerId) throw new Error(`${need.key}: a grant needs a provider`);
  // A multi-round-trip retry carrying the answer to an earlier URL ask: record it at that record,
  // then reconcile from the store (the browser callback, not the answer, completes a grant).
  const resumed = ctx.wire.resumed?.("url", need.key);
  if (resumed?.kind === "url") return settleResumedUrl(ctx, resumed, need);
  const existing = await activeConnection(db, { subject: ctx.subject, tenantId: ctx.tenantId, providerId: need.providerId });
  if (existing) return { status: "connected", connectionId: existing.id };

  const cfg = connectConfig();
  const [pending] = await db
    .select()
    .from(elicitationRecords)
    .where(
      and(
        eq(elicitationRecords.subject, ctx.subject),
        eq(elicitationRecords.tenantId, ctx.tenantId),
        eq(elicitationRecords.toolName, ctx.request.toolName),
        eq(elicitationRecords.providerId, need.providerId),
        inArray(elicitationRecords.state, [...movableFrom("endLink")]),
        gt(elicitationRecords.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(elicitationRecords.createdAt))
    .limit(1);
  // A deliberate defect, only under GATE_TEST_FAULTS (refused in production): the recovery gate must catch it.
  if (pending && !gateFault("new-record-on-retry")) {
    // Offer the same link again (unless the user is already at the provider); never a new record.
    if (pending.state !== "opened" && ctx.session.modes.url) {
      await offer(ctx, pending.id, cfg.connectUrl(pending.id), need, true).catch((err: unknown) => {
        // Multi-round-trip: the same link goes out again as an input request, same id.
        if (err instanceof WireSuspendedError) throw err;
      });
      return { status: "pending", recordId: pending.id, reused: true };
    }
    // Not shown by this call: give the person the same link (bound to them at the connect page).
    return { status: "pending", recordId: pending.id, reused: true, connectUrl: cfg.connectUrl(pending.id) };
  }

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

  const id = newRecordId();
  const connectUrl = cfg.connectUrl(id);
  let decision = decideRoute(need, ctx.session.modes, await policyView(ctx.policy, ctx.flow, ctx.subject));
  let provider;
  if (decision.route === "url") {
    try {
      provider = await providerInfo(db, need.providerId);
      await assertRedirectAllowed(db, cfg.redirectUri);
      const verdict = checkUrl(connectUrl, { dev: cfg.dev });
      if (verdict.verdict !== "allow")
        decision = { route: "blocked", reason: `connect URL refused by the URL check: ${verdict.reasons.map((r) => r.code).join(", ")}` };
    } catch (err) {
      if (!(err instanceof RegistryError)) throw err;
      decision = { route: "blocked", reason: err.message };
    }
  }
  logger.info(
    {
      event: "elicitation.decided",
      record: id,
      tool: ctx.request.toolName,
      flow: ctx.flow.id,
      route: decision.route,
      reason: decision.reason,
    },
    "grant routed",
  );
  const draft = {
    ...recordBasics(ctx, id, need.purpose, decision),
    mode: "url" as const,
    needKind: need.kind,
    providerId: need.providerId,
    targetOrigin: new URL(connectUrl).origin,
    redirectUri: cfg.redirectUri,
    expiresAt: new Date(Date.now() + cfg.ttlMs),
  };
  if (decision.route !== "url") {
    await insertRecord(db, draft, "not_sent");
    return { status: decision.route === "fallback" ? "fallback" : "blocked", recordId: id, reason: decision.reason };
  }
  await insertRecord(db, draft, "sent", { provider: need.providerId });
  return offer(ctx, id, connectUrl, need, false, provider!.displayName);
}

/** After a lost or late answer: report what the store says happened, never create anything. */
async function reconcile(ctx: AskContext, id: string, need: SecretNeed): Promise<GrantOutcome> {
  const connection = await activeConnection(ctx.db, { subject: ctx.subject, tenantId: ctx.tenantId, providerId: need.providerId! });
  if (connection) return { status: "connected", connectionId: connection.id };
  const [record] = await ctx.db.select().from(elicitationRecords).where(eq(elicitationRecords.id, id)).limit(1);
  if (record && movableFrom("endLink").includes(record.state)) return { status: "pending", recordId: id, reused: true };
  return { status: "failed", recordId: id, reason: `the request ended as ${record?.state ?? "unknown"}` };
}

async function offer(
  ctx: AskContext,
  id: string,
  url: string,
  need: SecretNeed,
  reused: boolean,
  providerName = need.providerId,
): Promise<GrantOutcome> {
  let answer;
  try {
    answer = await ctx.wire.askUrl(
      {
        message: `${need.purpose}. Open the link to connect ${providerName} in your browser; you will sign in there, not here.`,
        elicitationId: id,
        url,
      },
      { timeoutMs: ctx.config.formTimeoutMs, step: { recordId: id, needKey: need.key } },
    );
  } catch (err) {
    if (reused || err instanceof WireSuspendedError) throw err;
    const timeout = err instanceof WireTimeoutError;
    const reason = timeout
      ? "no answer within the timeout"
      : err instanceof WireDisconnectedError
        ? CLIENT_DISCONNECTED
        : err instanceof WireAbortedError
          ? "the originating request was cancelled"
          : "the client refused the URL request";
    const to = timeout ? "timed_out" : err instanceof WireAbortedError ? "cancelled" : "failed";
    const gone = err instanceof WireDisconnectedError;
    if (
      await transition(ctx.db, id, {
        move: "answer",
        to,
        reason,
        ...(gone ? { actor: { type: "system" as const, id: "client-disconnect" }, set: { endReason: CLIENT_DISCONNECTED } } : {}),
      })
    ) {
      return to === "failed" ? { status: "failed", recordId: id, reason } : { status: to, recordId: id };
    }
    // The answer was lost but the person went on in the browser: the store knows better.
    return reconcile(ctx, id, need);
  }
  const set = { respondedAt: new Date(), ...(answer.droppedContent ? { droppedContentCount: 1 } : {}) };
  if (answer.action === "accept") {
    // Consent to open the link, nothing more: only the server-side callback completes the record.
    const moved = await transition(ctx.db, id, {
      move: "answer",
      to: "accepted",
      actor: { type: "subject", id: ctx.subject },
      set,
      detail: { content_dropped: answer.droppedContent },
    });
    return moved ? { status: "pending", recordId: id, reused } : reconcile(ctx, id, need);
  }
  const to = answer.action === "decline" ? "declined" : "cancelled";
  await transition(ctx.db, id, { move: "refuseLink", to, actor: { type: "subject", id: ctx.subject }, set });
  return { status: to, recordId: id };
}

/**
 * The URL answer a multi-round-trip retry carried. `accept` is consent to open the link (recorded
 * once, by the guarded transition or, when the browser already moved the record on, by filling the
 * empty answer slot); decline and cancel end a record still in flight. Then the store decides:
 * a grant the callback stored is used, otherwise the record is still pending. Nothing is created.
 */
async function settleResumedUrl(
  ctx: AskContext,
  resumed: Extract<ResumedAnswer, { kind: "url" }>,
  need: SecretNeed,
): Promise<GrantOutcome> {
  const id = resumed.recordId;
  const set = { respondedAt: new Date(), ...(resumed.answer.droppedContent ? { droppedContentCount: 1 } : {}) };
  const actor = { type: "subject" as const, id: ctx.subject };
  if (resumed.answer.action === "accept") {
    const moved = await transition(ctx.db, id, {
      move: "answer",
      to: "accepted",
      actor,
      set,
      detail: { content_dropped: resumed.answer.droppedContent },
    });
    if (!moved)
      await ctx.db
        .update(elicitationRecords)
        .set(set)
        .where(and(eq(elicitationRecords.id, id), isNull(elicitationRecords.respondedAt)));
    return reconcile(ctx, id, need);
  }
  const to = resumed.answer.action === "decline" ? "declined" : "cancelled";
  if (await transition(ctx.db, id, { move: "refuseLink", to, actor, set })) return { status: to, recordId: id };
  return reconcile(ctx, id, need);
}
