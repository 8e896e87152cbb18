// Revocation of unfinished handles: by id, or every pending one (optionally for one flow). Each
// revoked record gets its event and its own audit entry, in one transaction. A late callback for a
// revoked record attaches nothing (lib/connect/flow.ts).
import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Tx } from "@/db/client";
import { elicitationEvents, elicitationRecords } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAuditBatch } from "@/lib/audit/writer";

export const UNFINISHED = ["created", "sent", "accepted", "opened"] as const;

export interface RevokeSelector {
  ids?: string[];
  pending?: { flowId?: string; mode?: "form" | "url" };
}

export async function revokeRecordsTx(tx: Tx, actor: { type: "operator" | "system"; id: string }, selector: RevokeSelector, reason: string): Promise<string[]> {
  const conds: SQL[] = [inArray(elicitationRecords.state, [...UNFINISHED])];
  if (selector.ids) conds.push(inArray(elicitationRecords.id, selector.ids));
  if (selector.pending?.flowId) conds.push(eq(elicitationRecords.flowId, selector.pending.flowId));
  if (selector.pending?.mode) conds.push(eq(elicitationRecords.mode, selector.pending.mode));
  if (!selector.ids && !selector.pending) throw new Error("say which records to revoke");
  const now = new Date();
  const revoked = await tx
    .update(elicitationRecords)
    .set({ state: "revoked", updatedAt: now, finishedAt: now })
    .where(and(...conds))
    .returning({ id: elicitationRecords.id });
  if (revoked.length === 0) return [];
  const ids = revoked.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    await tx.insert(elicitationEvents).values(chunk.map((id) => ({ recordId: id, fromState: null, toState: "revoked" as const, at: now, actorType: actor.type, actorId: actor.id, reason })));
  }
  await appendAuditBatch(tx, ids.map((id) => ({ actorType: actor.type, actorId: actor.id, action: AUDIT_ACTIONS.recordRevoked, targetType: "elicitation", targetId: id, detail: { reason } })));
  return ids;
}

export async function revokeRecords(db: Db, actor: { type: "operator" | "system"; id: string }, selector: RevokeSelector, reason: string): Promise<string[]> {
  return db.transaction((tx) => revokeRecordsTx(tx, actor, selector, reason));
}
