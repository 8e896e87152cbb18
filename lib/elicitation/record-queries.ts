// Console reads of elicitation records: server-side filtering, sorting and keyset pagination on the
// (created_at, id) indexes, so any page depth costs the same. Value-free by construction: the
// table holds nothing else.
import { and, asc, desc, eq, gt, inArray, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { elicitationEvents, elicitationRecords, elicitationState, recordRollup, type ElicitationRecord } from "@/db/schema";
import { queryTextSchema } from "@/lib/http/params";
import { isUnfinished, UNFINISHED } from "./record-states";

export const PAGE_SIZE = 50;

/** Every record state, for the console's filter choices (app/ never reads the schema itself). */
export const RECORD_STATES = elicitationState.enumValues;

export const recordFilterSchema = z.object({
  state: z.enum(elicitationState.enumValues).optional(),
  mode: z.enum(["form", "url"]).optional(),
  flow: queryTextSchema().optional(),
  client: queryTextSchema().optional(),
  inflight: z.literal("1").optional(),
  sort: z.enum(["newest", "oldest"]).default("newest"),
  after: z
    .string()
    .regex(/^\d{13}_[0-9a-f]{32}$/)
    .optional(),
});

export type RecordFilters = z.infer<typeof recordFilterSchema>;

export async function listRecords(
  db: Db,
  f: RecordFilters,
  limit = PAGE_SIZE,
): Promise<{ rows: ElicitationRecord[]; next: string | null }> {
  const conds: SQL[] = [];
  if (f.state) conds.push(eq(elicitationRecords.state, f.state));
  if (f.inflight) conds.push(inArray(elicitationRecords.state, [...UNFINISHED]));
  if (f.mode) conds.push(eq(elicitationRecords.mode, f.mode));
  if (f.flow) conds.push(eq(elicitationRecords.flowId, f.flow));
  if (f.client) conds.push(eq(elicitationRecords.clientName, f.client));
  const newest = f.sort === "newest";
  if (f.after) {
    const [ms, id] = f.after.split("_") as [string, string];
    const at = new Date(Number(ms));
    // A row comparison, so PostgreSQL walks the (state, created_at, id) index from the cursor;
    // the equivalent OR form makes it scan from the start of the filter.
    const iso = at.toISOString();
    conds.push(
      newest
        ? sql`(${elicitationRecords.createdAt}, ${elicitationRecords.id}) < (${iso}::timestamptz, ${id})`
        : sql`(${elicitationRecords.createdAt}, ${elicitationRecords.id}) > (${iso}::timestamptz, ${id})`,
    );
  }
  const order = newest
    ? [desc(elicitationRecords.createdAt), desc(elicitationRecords.id)]
    : [asc(elicitationRecords.createdAt), asc(elicitationRecords.id)];
  const rows = await db
    .select()
    .from(elicitationRecords)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(...order)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? `${last.createdAt.getTime()}_${last.id}` : null };
}

export async function recordWithEvents(db: Db, id: string) {
  const [record] = await db.select().from(elicitationRecords).where(eq(elicitationRecords.id, id)).limit(1);
  if (!record) return undefined;
  const events = await db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, id)).orderBy(elicitationEvents.id);
  return { record, events };
}

/** Distinct flows and clients for the filter pickers (small tables of names). */
/**
 * The flows and client names that occur in the records, for the filter menus. Read from the
 * hourly rollup (a few thousand rows), not the records: this runs on every page load and refresh.
 */
export async function filterChoices(db: Db) {
  const [flows, clients] = await Promise.all([
    db
      .selectDistinct({ v: recordRollup.flowId })
      .from(recordRollup)
      .where(and(gt(recordRollup.records, 0), ne(recordRollup.flowId, "")))
      .orderBy(recordRollup.flowId)
      .limit(200),
    db
      .selectDistinct({ v: recordRollup.clientName })
      .from(recordRollup)
      .where(gt(recordRollup.records, 0))
      .orderBy(recordRollup.clientName)
      .limit(200),
  ]);
  return { flows: flows.map((r) => r.v), clients: clients.map((r) => r.v) };
}

/** A record waiting longer than its deadline: the form timeout, or the link's expiry. */
export function isStuck(
  r: Pick<ElicitationRecord, "state" | "mode" | "createdAt" | "expiresAt">,
  formTimeoutMs: number,
  now = Date.now(),
): boolean {
  if (!isUnfinished(r.state)) return false;
  if (r.mode === "url") return !!r.expiresAt && r.expiresAt.getTime() < now;
  return now - r.createdAt.getTime() > formTimeoutMs;
}
