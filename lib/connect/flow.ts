// The connect flow behind /connect/{id}: prove the browser user is the user who triggered the
// request, then (only on Continue) send them to the provider; the callback checks everything again
// and puts the credential in the vault. Every refusal attaches nothing and is audited.
import { gateFault } from "@/lib/config/gate-faults";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords, type ElicitationRecord } from "@/db/schema";
import { auditCoalesced } from "@/lib/abuse/audit-coalesce";
import { abuseConfig } from "@/lib/abuse/config";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { requiredSecret } from "@/lib/config/secrets";
import { notifyElicitationComplete } from "@/lib/mcp/live-sessions";
import { getRecord, isRecordId, transition } from "@/lib/elicitation/records";
import { movableFrom } from "@/lib/elicitation/record-states";
import { logger } from "@/lib/log/logger";
import { openBlob, sealBlob, vaultKey } from "@/lib/vault/vault";
import { connectConfig } from "./config";
import { storeConnection } from "./connections";
import { authorizationUrl, exchangeCode } from "./oauth-client";
import { providerInfo } from "./registry";

export type Problem = "not_found" | "mismatch" | "expired" | "revoked" | "used" | "finished";
export interface BrowserUser {
  sub: string;
  tenant: string | null;
}

export const PROBLEM_TEXT: Record<Problem, string> = {
  not_found: "This connect link is not valid.",
  mismatch: "This link was started by a different account. Nothing was connected. If someone sent you this link, do not use it.",
  expired: "This connect link has expired. Nothing was connected; ask your MCP client again.",
  revoked: "This connect link was revoked by an operator. Nothing was connected.",
  used: "This connect link was already used. Nothing new was connected.",
  finished: "This request is already finished. Nothing new was connected.",
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * Audits a refusal. A view (GET of the connect page) is coalesced: the first refusal of its kind in
 * a window is written, repeats are counted (an id that names no record is not part of the key, so
 * random ids cannot each open a window). Decisions (POST) write one entry per attempt.
 */
async function refuse(
  db: Db,
  user: BrowserUser,
  record: ElicitationRecord | undefined,
  id: string,
  problem: Problem,
  view = false,
): Promise<{ ok: false; problem: Problem }> {
  const entry = {
    actorType: "subject" as const,
    actorId: user.sub,
    action: problem === "mismatch" ? AUDIT_ACTIONS.connectMismatch : AUDIT_ACTIONS.connectRefused,
    targetType: "elicitation",
    targetId: record?.id ?? id.slice(0, 64),
    detail: { problem },
  };
  if (view)
    await auditCoalesced(
      db,
      entry,
      { actor: user.sub, action: entry.action, reason: problem, target: `elicitation:${record?.id ?? "*"}` },
      abuseConfig().auditCoalesceWindowMs,
    );
  else await db.transaction((tx) => appendAudit(tx, entry));
  return { ok: false, problem };
}

/** Checks a record against the browser user; expires it on the way if its time is up. */
async function check(
  db: Db,
  id: string,
  user: BrowserUser,
  allowed: readonly ElicitationRecord["state"][],
  view = false,
): Promise<{ ok: true; record: ElicitationRecord } | { ok: false; problem: Problem }> {
  const record = isRecordId(id) ? await getRecord(db, id) : undefined;
  if (!record || record.mode !== "url") return refuse(db, user, undefined, id, "not_found", view);
  // Identity first: another user learns nothing about the record's state.
  // GATE_TEST_FAULTS=skip-browser-user-check (refused in production) removes this check on purpose.
  if ((record.subject !== user.sub || (user.tenant !== null && record.tenantId !== user.tenant)) && !gateFault("skip-browser-user-check"))
    return refuse(db, user, record, id, "mismatch", view);
  if (record.state === "revoked") return refuse(db, user, record, id, "revoked", view);
  if (record.expiresAt && record.expiresAt.getTime() <= Date.now()) {
    await transition(db, record.id, { move: "endLink", to: "expired", reason: "link expired" });
    return refuse(db, user, record, id, "expired", view);
  }
  if (record.state === "expired") return refuse(db, user, record, id, "expired", view);
  if (!allowed.includes(record.state)) return refuse(db, user, record, id, record.state === "opened" ? "used" : "finished", view);
  return { ok: true, record };
}

export async function connectView(db: Db, id: string, user: BrowserUser) {
  // `opened`: the person pressed Continue but no callback came back (they left the provider's
  // sign-in, or it failed there). Their client keeps offering this same link, so the page must
  // offer a way on (start again) rather than a dead end.
  const checked = await check(db, id, user, movableFrom("endLink"), true);
  if (!checked.ok) return checked;
  const { record } = checked;
  const provider = await providerInfo(db, record.providerId!);
  return {
    ok: true as const,
    view: {
      id: record.id,
      purpose: record.purpose,
      clientName: record.clientName,
      tool: record.toolName,
      providerName: provider.displayName,
      providerUrl: provider.issuer,
      expiresAt: record.expiresAt!,
      startedAt: record.state === "opened" ? record.updatedAt : null,
    },
  };
}

function nonceFor(id: string, state: string): string {
  // Derived, so only its hash needs storing: the callback recomputes it from the returned state.
  return createHmac("sha256", requiredSecret("connectNonce")).update(`${id}.${state}`).digest("base64url");
}

/** Continue: single use. Returns the provider's authorization URL. */
export async function continueConnect(
  db: Db,
  id: string,
  user: BrowserUser,
): Promise<{ ok: true; location: string } | { ok: false; problem: Problem }> {
  const checked = await check(db, id, user, movableFrom("openLink"));
  if (!checked.ok) return checked;
  const cfg = connectConfig();
  const provider = await providerInfo(db, checked.record.providerId!);
  const state = randomBytes(32).toString("base64url");
  const nonce = nonceFor(id, state);
  const verifier = randomBytes(48).toString("base64url");
  const moved = await transition(db, id, {
    move: "openLink",
    to: "opened",
    actor: { type: "subject", id: user.sub },
    set: { stateHash: sha256(state), nonceHash: sha256(nonce), pkceVerifierSealed: sealBlob(vaultKey(), `pkce:${id}`, verifier) },
  });
  if (!moved) return refuse(db, user, checked.record, id, "used");
  const url = await authorizationUrl(provider, cfg.dev, { redirectUri: checked.record.redirectUri!, state, nonce, verifier });
  return { ok: true, location: url.toString() };
}

/**
 * Start again after a Continue that never came back: a fresh state, nonce and PKCE verifier on the
 * same record (one record, one link), so the earlier trip to the provider can no longer complete
 * (its state names nothing) and the new one can. Only the record's own person, only while opened.
 */
export async function restartConnect(
  db: Db,
  id: string,
  user: BrowserUser,
): Promise<{ ok: true; location: string } | { ok: false; problem: Problem }> {
  const checked = await check(db, id, user, ["opened"]);
  if (!checked.ok) return checked;
  const cfg = connectConfig();
  const provider = await providerInfo(db, checked.record.providerId!);
  const state = randomBytes(32).toString("base64url");
  const nonce = nonceFor(id, state);
  const verifier = randomBytes(48).toString("base64url");
  const rotated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(elicitationRecords)
      .set({ stateHash: sha256(state), nonceHash: sha256(nonce), pkceVerifierSealed: sealBlob(vaultKey(), `pkce:${id}`, verifier) })
      .where(
        and(
          eq(elicitationRecords.id, id),
          eq(elicitationRecords.state, "opened"),
          eq(elicitationRecords.stateHash, checked.record.stateHash!),
        ),
      )
      .returning({ id: elicitationRecords.id });
    if (row)
      await appendAudit(tx, {
        actorType: "subject",
        actorId: user.sub,
        action: AUDIT_ACTIONS.connectRestarted,
        targetType: "elicitation",
        targetId: id,
        detail: { provider: provider.id },
      });
    return !!row;
  });
  // Another tab restarted or a callback completed meanwhile: this one changes nothing.
  if (!rotated) return refuse(db, user, checked.record, id, "used");
  const url = await authorizationUrl(provider, cfg.dev, { redirectUri: checked.record.redirectUri!, state, nonce, verifier });
  return { ok: true, location: url.toString() };
}

export async function declineConnect(db: Db, id: string, user: BrowserUser, action: "decline" | "cancel") {
  const checked = await check(db, id, user, movableFrom("endLink"));
  if (!checked.ok) return checked;
  const moved = await transition(db, id, {
    move: "endLink",
    to: action === "decline" ? "declined" : "cancelled",
    actor: { type: "subject", id: user.sub },
    reason: `${action} on the connect page`,
  });
  if (!moved) return refuse(db, user, checked.record, id, "finished");
  return { ok: true as const };
}

export type CallbackResult = { ok: true; providerName: string; created: boolean } | { ok: false; problem: Problem | "refused" };

/** Thrown inside the completing transaction when the record left `opened` meanwhile: rolls it back. */
class RecordMovedError extends Error {}

/** The provider's redirect back. Completes the record (server-side, the only way it completes). */
export async function completeCallback(db: Db, query: URLSearchParams, user: BrowserUser): Promise<CallbackResult> {
  const state = query.get("state");
  const [record] = state
    ? await db
        .select()
        .from(elicitationRecords)
        .where(eq(elicitationRecords.stateHash, sha256(state)))
        .limit(1)
    : [];
  if (!record || !state) {
    // A callback naming no flow of ours changes nothing, like a view: coalesced.
    const entry = {
      actorType: "subject" as const,
      actorId: user.sub,
      action: AUDIT_ACTIONS.connectRefused,
      targetType: "elicitation",
      targetId: "unknown",
      detail: { problem: "unknown_state" },
    };
    await auditCoalesced(
      db,
      entry,
      { actor: user.sub, action: entry.action, reason: "unknown_state", target: "elicitation:*" },
      abuseConfig().auditCoalesceWindowMs,
    );
    return { ok: false, problem: "not_found" };
  }
  if (record.subject !== user.sub || (user.tenant !== null && record.tenantId !== user.tenant))
    return refuse(db, user, record, record.id, "mismatch");
  if (record.state !== "opened" || (record.expiresAt && record.expiresAt.getTime() <= Date.now())) {
    // Late (revoked or expired) or replayed (already completed): attach nothing, record it.
    if (record.state === "opened") await transition(db, record.id, { move: "callback", to: "expired", reason: "callback after expiry" });
    if (record.state !== "completed") {
      await db.transaction(async (tx) => {
        await tx.update(elicitationRecords).set({ lateCallbackAt: new Date() }).where(eq(elicitationRecords.id, record.id));
        await appendAudit(tx, {
          actorType: "subject",
          actorId: user.sub,
          action: AUDIT_ACTIONS.recordLateCallback,
          targetType: "elicitation",
          targetId: record.id,
          detail: { state: record.state === "opened" ? "expired" : record.state },
        });
      });
      return { ok: false, problem: record.state === "revoked" ? "revoked" : "expired" };
    }
    return refuse(db, user, record, record.id, "used");
  }
  // Claim the callback: the first request takes the sealed PKCE verifier out of the record in one
  // statement, so only it can redeem the code. A second load of the same callback (a double click,
  // a browser retry, a prefetch) finds the verifier gone and is told the link is in use, changing
  // nothing; without the claim it would redeem the code too, fail at the provider and fail the
  // record under the first one, so nobody connected.
  const [claimed] = await db
    .update(elicitationRecords)
    .set({ pkceVerifierSealed: null })
    .where(
      and(eq(elicitationRecords.id, record.id), eq(elicitationRecords.state, "opened"), isNotNull(elicitationRecords.pkceVerifierSealed)),
    )
    .returning({ id: elicitationRecords.id });
  const sealedVerifier = claimed ? record.pkceVerifierSealed : null;
  if (!sealedVerifier) return refuse(db, user, record, record.id, "used");
  const cfg = connectConfig();
  const provider = await providerInfo(db, record.providerId!);
  const callbackUrl = new URL(record.redirectUri!);
  callbackUrl.search = query.toString();
  let tokens;
  try {
    const verifier = openBlob(vaultKey(), `pkce:${record.id}`, sealedVerifier);
    tokens = await exchangeCode(provider, cfg.dev, {
      callbackUrl,
      redirectUri: record.redirectUri!,
      state,
      nonce: nonceFor(record.id, state),
      verifier,
    });
  } catch (err) {
    // Keywords only: provider error bodies can echo codes.
    logger.warn(
      { event: "connect.exchange_failed", record: record.id, error: err instanceof Error ? err.name : "error" },
      "code exchange refused",
    );
    await db.transaction(async (tx) => {
      await transition(tx, record.id, { move: "callback", to: "failed", reason: "the provider's answer did not pass the checks" });
      await appendAudit(tx, {
        actorType: "subject",
        actorId: user.sub,
        action: AUDIT_ACTIONS.connectRefused,
        targetType: "elicitation",
        targetId: record.id,
        detail: { problem: "exchange_failed" },
      });
    });
    return { ok: false, problem: "refused" };
  }
  const scope = tokens.scope ?? provider.scopes.join(" ");
  const binding = { subject: record.subject, tenantId: record.tenantId, providerId: provider.id, scope };
  // The grant, the record's completion and the audit entry commit together or not at all: a record
  // revoked while the exchange was in flight gets no credential (the transition's guard fails).
  const result = await db
    .transaction(async (tx) => {
      const stored = await storeConnection(
        tx,
        binding,
        {
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
          expires_at: tokens.expires_in ? Math.floor(Date.now() / 1000) + tokens.expires_in : undefined,
          scope,
        },
        record.id,
      );
      const moved = await transition(tx, record.id, {
        move: "callback",
        to: "completed",
        actor: { type: "system", id: "connect-callback" },
        detail: { connection: stored.id, new_grant: stored.created },
      });
      if (!moved) throw new RecordMovedError();
      await appendAudit(tx, {
        actorType: "subject",
        actorId: record.subject,
        action: AUDIT_ACTIONS.connectCompleted,
        targetType: "elicitation",
        targetId: record.id,
        detail: { provider: provider.id, connection: stored.id, new_grant: stored.created },
      });
      return stored;
    })
    .catch(async (err: unknown) => {
      if (!(err instanceof RecordMovedError)) throw err;
      await db.transaction(async (tx) => {
        await tx.update(elicitationRecords).set({ lateCallbackAt: new Date() }).where(eq(elicitationRecords.id, record.id));
        await appendAudit(tx, {
          actorType: "subject",
          actorId: user.sub,
          action: AUDIT_ACTIONS.recordLateCallback,
          targetType: "elicitation",
          targetId: record.id,
          detail: { state: "revoked during exchange" },
        });
      });
      return undefined;
    });
  if (!result) return { ok: false, problem: "revoked" };
  await notifyElicitationComplete(record.sessionId, record.id);
  return { ok: true, providerName: provider.displayName, created: result.created };
}
