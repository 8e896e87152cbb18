// Read side of the audit log for the console and the CLI. Queries throw on failure; callers
// never receive an empty list standing in for an error.
import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { queryTextSchema } from "@/lib/http/params";
import { AUDIT_ACTION_VALUES, type AuditAction } from "./actions";

export async function auditHead(db: Db): Promise<{ entries: number; headSeq: number; headHash: string | null; lastAt: Date | null }> {
  const [head] = await db
    .select({ seq: auditLog.seq, hash: auditLog.hash, ts: auditLog.ts })
    .from(auditLog)
    .orderBy(desc(auditLog.seq))
    .limit(1);
  // seq is dense from 1, so the head's seq is the number of entries without a count(*) scan.
  return { entries: head?.seq ?? 0, headSeq: head?.seq ?? 0, headHash: head?.hash ?? null, lastAt: head?.ts ?? null };
}

// The audit log's URL state, one schema for the console page and the JSON route (parsed with
// lib/http/search-params.ts): exact-match filters on indexed columns, and for the page a keyset
// cursor (entries older than a sequence number).
const auditFilters = z.object({
  // Only actions this product writes: a misspelt filter is refused visibly, never an empty page.
  action: z.enum(AUDIT_ACTION_VALUES, { error: "no audit action has that name (expected resource.verb, e.g. access.denied)" }).optional(),
  actor: queryTextSchema().optional(),
});
export const AUDIT_PAGE_SIZE = 100;
export const auditPageQuery = auditFilters.extend({
  before: z
    .string()
    .regex(/^\d{1,16}$/, "expected a sequence number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
    .optional(),
});
export const auditApiQuery = auditFilters.extend({ limit: z.coerce.number().int().min(1).max(500).default(AUDIT_PAGE_SIZE) });

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
