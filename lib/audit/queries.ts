// Read side of the audit log for the console and the CLI. Queries throw on failure; callers
// never receive an empty list standing in for an error.
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import type { AuditAction } from "./actions";

export async function auditHead(db: Db): Promise<{ entries: number; headSeq: number; headHash: string | null; lastAt: Date | null }> {
  const [head] = await db.select({ seq: auditLog.seq, hash: auditLog.hash, ts: auditLog.ts }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  // seq is dense from 1, so the head's seq is the number of entries without a count(*) scan.
  return { entries: head?.seq ?? 0, headSeq: head?.seq ?? 0, headHash: head?.hash ?? null, lastAt: head?.ts ?? null };
}

export interface AuditFilter {
  action?: AuditAction;
  actorId?: string;
  /** Keyset: entries older than this sequence number. */
  beforeSeq?: number;
  limit: number;
}

/** Newest first; filters are exact matches on indexed columns. */
export async function listAudit(db: Db, filter: AuditFilter) {
  const conds = [];
  if (filter.action) conds.push(eq(auditLog.action, filter.action));
  if (filter.actorId) conds.push(eq(auditLog.actorId, filter.actorId));
  if (filter.beforeSeq) conds.push(lt(auditLog.seq, filter.beforeSeq));
  return db
    .select()
    .from(auditLog)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(auditLog.seq))
    .limit(filter.limit);
}
