// Checks a 2026-07-28 retry before anything runs: the sealed requestState must open with this
// server's key, belong to this subject, tenant, tool and arguments, be unexpired, and name a
// record that can still take the answer. Form state is single use (its record must still be
// `sent`); URL state may come back until its record ends, because the retry's job there is to
// find the grant the browser stored, and a retry never creates a record or a grant.
// Every refusal is audited (reason keyword, tool, record id: never the state itself) and changes
// nothing, except that an expired form state closes its record as timed out.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords, type ElicitationRecord } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { isRecordId, transition } from "@/lib/elicitation/records";
import type { FormAnswer, ResumedAnswer } from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import { openRequestState, type StateRefusal } from "../request-state";

export type ResumeRefusal = StateRefusal | "replayed" | "revoked" | "no_answer";

export type ResumeCheck = { ok: true; resume: ResumedAnswer } | { ok: false; reason: ResumeRefusal; needKey?: string };

const URL_LIVE: ElicitationRecord["state"][] = ["sent", "accepted", "opened", "completed"];

export async function checkResume(
  db: Db,
  key: Buffer,
  q: { principal: McpPrincipal; tool: string; argsHash: string; state: string; inputResponses: Record<string, unknown> | undefined },
): Promise<ResumeCheck> {
  const opened = openRequestState(key, q.state, {
    subject: q.principal.subject,
    tenant: q.principal.tenant,
    clientId: q.principal.clientId,
    tool: q.tool,
    argsHash: q.argsHash,
  });
  if (!opened.ok) {
    if (opened.reason === "expired" && opened.claims?.kind === "form") {
      // The sealed state's expiry is this era's form timeout: the unanswered record ends here.
      await transition(db, opened.claims.recordId, {
        move: "answer",
        to: "timed_out",
        reason: "the request state expired before an answer arrived",
      });
    }
    return refuse(db, q, opened.reason, opened.claims?.recordId);
  }
  const c = opened.claims;
  const [record] = isRecordId(c.recordId)
    ? await db.select().from(elicitationRecords).where(eq(elicitationRecords.id, c.recordId)).limit(1)
    : [];
  // The state is ours and bound to this caller, so a mismatch here means the record moved on
  // (answered, revoked, expired) since the state was issued: a replay, as far as the caller goes.
  const live =
    record &&
    record.subject === c.subject &&
    record.tenantId === c.tenant &&
    record.toolName === c.tool &&
    record.mode === c.kind &&
    (c.kind === "form" ? record.state === "sent" : URL_LIVE.includes(record.state));
  if (!live) {
    // Ended by a kill switch, a flow rollback or an operator while the person was answering: said
    // so plainly, not as a replay (the answer is refused all the same).
    const revoked = record && record.subject === c.subject && record.tenantId === c.tenant && record.state === "revoked";
    return refuse(db, q, revoked ? "revoked" : "replayed", c.recordId);
  }

  const answer = parseAnswer(q.inputResponses?.[c.needKey]);
  if (!answer) return refuse(db, q, "no_answer", c.recordId, c.needKey);
  // Answers settled in earlier rounds of this call ride along (sealed, so ours; the engine checks their records again).
  const carried = c.carried ? { carried: c.carried } : {};
  if (c.kind === "form") return { ok: true, resume: { kind: "form", recordId: c.recordId, needKey: c.needKey, answer, ...carried } };
  // A URL-mode result carries no content; anything sent with it is dropped (and counted).
  const dropped = answer.content !== undefined && Object.keys(answer.content).length > 0;
  return {
    ok: true,
    resume: {
      kind: "url",
      recordId: c.recordId,
      needKey: c.needKey,
      answer: { action: answer.action, droppedContent: dropped },
      ...carried,
    },
  };
}

/** The bare elicitation result a client put in inputResponses; anything else is no answer. */
function parseAnswer(raw: unknown): FormAnswer | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const { action, content } = raw as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") return undefined;
  if (content === undefined || content === null) return { action };
  if (typeof content !== "object" || Array.isArray(content)) return undefined;
  return { action, content: content as Record<string, unknown> };
}

async function refuse(
  db: Db,
  q: { principal: McpPrincipal; tool: string },
  reason: ResumeRefusal,
  recordId?: string,
  needKey?: string,
): Promise<ResumeCheck> {
  logger.warn({ event: "mcp.request_state_refused", reason, tool: q.tool, record: recordId ?? null }, "requestState refused");
  await db.transaction((tx) =>
    appendAudit(tx, {
      actorType: "subject",
      actorId: q.principal.subject,
      action: AUDIT_ACTIONS.requestStateRefused,
      targetType: "elicitation",
      targetId: recordId && isRecordId(recordId) ? recordId : "unknown",
      detail: { reason, tool: q.tool, tenant: q.principal.tenant },
    }),
  );
  return { ok: false, reason, ...(needKey ? { needKey } : {}) };
}
