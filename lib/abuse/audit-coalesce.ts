// Coalescing of repeated denied views, so a flood of page views cannot flood the audit log while
// every denial is still accounted for. The first denial of a key in a window is written at once
// (in its own transaction, like every denial); later ones in the window only increment a counter
// in the store (so all instances count together); the count is written as ONE entry, the action
// with "_repeated" and `repeats: N`, when the key's next window opens or when the reconciler's
// timer flushes windows that have ended. Only views (GETs) coalesce: state-changing actions keep
// one audit entry per attempt.
import { createHash } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { auditCoalesce } from "@/db/schema";
import { REPEATED_ACTION, type CoalescedAction } from "@/lib/audit/actions";
import type { AuditDetail } from "@/lib/audit/canonical";
import { appendAudit, type AuditInput } from "@/lib/audit/writer";

export type CoalesceOutcome = "written" | "counted";

/** What makes two denials "the same": never attacker-chosen ids (random ids must not mint keys). */
export interface CoalesceKey {
  actor: string;
  action: CoalescedAction;
  /** The permission or problem. */
  reason: string;
  /** The target as far as it is not chosen by the requester (e.g. "console:audit", "elicitation:*"). */
  target: string;
}

type CoalescedInput = AuditInput & { action: CoalescedAction; detail: AuditDetail };

const keyHash = (key: CoalesceKey) =>
  createHash("sha256")
    .update(JSON.stringify([key.actor, key.action, key.reason, key.target]))
    .digest("base64url");

function repeatedEntry(row: typeof auditCoalesce.$inferSelect): AuditInput {
  // The row was written by auditCoalesced below with a CoalescedAction; a row naming anything else
  // was not, and is refused rather than audited under a made-up name.
  if (!Object.hasOwn(REPEATED_ACTION, row.action)) throw new Error(`audit_coalesce holds an action that is not coalesced: ${row.action}`);
  return {
    actorType: row.actorType,
    actorId: row.actorId,
    action: REPEATED_ACTION[row.action as CoalescedAction],
    targetType: row.targetType,
    targetId: row.targetId,
    detail: { ...row.detail, repeats: row.repeats, window_start: row.windowStart.toISOString(), last_at: row.lastAt.toISOString() },
  };
}

/**
 * Records one denied view. Returns "written" when this call wrote an audit entry (the first in its
 * window), "counted" when it only added to the window's count.
 */
export async function auditCoalesced(
  db: Db,
  entry: CoalescedInput,
  key: CoalesceKey,
  windowMs: number,
  now = new Date(),
): Promise<CoalesceOutcome> {
  const k = keyHash(key);
  const windowOpenSince = new Date(now.getTime() - windowMs);
  // The flood path: one UPDATE, no audit chain lock.
  const counted = await db
    .update(auditCoalesce)
    .set({ repeats: sql`${auditCoalesce.repeats} + 1`, lastAt: now })
    .where(and(eq(auditCoalesce.key, k), gt(auditCoalesce.windowStart, windowOpenSince)))
    .returning({ key: auditCoalesce.key });
  if (counted.length > 0) return "counted";
  return db.transaction(async (tx) => {
    const fields = {
      windowStart: now,
      lastAt: now,
      repeats: 0,
      actorType: entry.actorType,
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      detail: entry.detail,
    };
    const inserted = await tx
      .insert(auditCoalesce)
      .values({ key: k, ...fields })
      .onConflictDoNothing()
      .returning({ key: auditCoalesce.key });
    if (inserted.length === 0) {
      const [row] = await tx.select().from(auditCoalesce).where(eq(auditCoalesce.key, k)).for("update");
      if (row && row.windowStart > windowOpenSince) {
        // Another request opened the window meanwhile: count this one in it.
        await tx
          .update(auditCoalesce)
          .set({ repeats: sql`${auditCoalesce.repeats} + 1`, lastAt: now })
          .where(eq(auditCoalesce.key, k));
        return "counted" as const;
      }
      if (row && row.repeats > 0) await appendAudit(tx, repeatedEntry(row));
      await tx.update(auditCoalesce).set(fields).where(eq(auditCoalesce.key, k));
    }
    await appendAudit(tx, entry);
    return "written" as const;
  });
}

async function flushBatch(tx: Tx, before: Date, limit: number): Promise<{ seen: number; written: number }> {
  const due = await tx
    .select()
    .from(auditCoalesce)
    .where(lte(auditCoalesce.windowStart, before))
    .orderBy(auditCoalesce.windowStart)
    .limit(limit)
    .for("update", { skipLocked: true });
  let written = 0;
  for (const row of due) {
    if (row.repeats > 0) {
      await appendAudit(tx, repeatedEntry(row));
      written += 1;
    }
    await tx.delete(auditCoalesce).where(eq(auditCoalesce.key, row.key));
  }
  return { seen: due.length, written };
}

/** Writes the counts of every window that has ended and forgets those windows. Returns entries written. */
export async function flushCoalescedAudit(db: Db, windowMs: number, now = new Date(), batch = 500): Promise<number> {
  const before = new Date(now.getTime() - windowMs);
  let total = 0;
  for (;;) {
    const { seen, written } = await db.transaction((tx) => flushBatch(tx, before, batch));
    total += written;
    if (seen < batch) return total;
  }
}
