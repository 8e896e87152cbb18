// After a person's decline or cancel, the same workflow is not prompted again for the same subject and
// tenant within the cool-down: the earlier outcome is returned and counted as a prevented repeat.
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords, type ElicitationRecord } from "@/db/schema";

export async function recentRefusal(
  db: Db,
  q: { subject: string; tenantId: string; toolName: string; cooldownMs: number },
): Promise<ElicitationRecord | undefined> {
  if (q.cooldownMs <= 0) return undefined;
  const since = new Date(Date.now() - q.cooldownMs);
  const [last] = await db
    .select()
    .from(elicitationRecords)
    .where(
      and(
        eq(elicitationRecords.subject, q.subject),
        eq(elicitationRecords.tenantId, q.tenantId),
        eq(elicitationRecords.toolName, q.toolName),
        gt(elicitationRecords.createdAt, since),
      ),
    )
    .orderBy(desc(elicitationRecords.createdAt))
    .limit(1);
  // Only the latest answer counts: a later completion ends the cool-down. A record cancelled because
  // its client went away (end reason client_disconnected) is no person's answer: they are asked again.
  return last && (last.state === "declined" || last.state === "cancelled") && last.endReason === null ? last : undefined;
}

export async function countPreventedRepeat(db: Db, id: string): Promise<void> {
  await db
    .update(elicitationRecords)
    .set({ preventedRepeats: sql`${elicitationRecords.preventedRepeats} + 1` })
    .where(and(eq(elicitationRecords.id, id), inArray(elicitationRecords.state, ["declined", "cancelled"])));
}
