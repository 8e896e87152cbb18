// Reads the audit entries of an export in seq order, in batches, without the ORM's row mapping.
// PostgreSQL: one server-side cursor (postgres.js `.cursor()`), so the database streams the rows
// and nothing is re-planned per page; the next batch is fetched while the current one is hashed
// (readAhead). PGlite (embedded, in-process): keyset pages.
// The log is append-only, so everything up to the head read at the start is immutable.
import { and, asc, gt, gte, lt, lte } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "@/db/client";
import { auditLog, type AuditRow } from "@/db/schema";
import type { AuditEntry } from "./canonical";

const BATCH = 2000;
const PAGE = 5000;

export interface RowRange {
  headSeq: number;
  from?: Date;
  to?: Date;
}

export function rowToEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    ts: row.ts.toISOString(),
    actorType: row.actorType,
    actorId: row.actorId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    detail: row.detail,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** The postgres.js client behind a drizzle instance, when there is one. */
function postgresClient(db: Db): postgres.Sql | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return typeof client === "function" && "unsafe" in client && "reserve" in client ? (client as postgres.Sql) : undefined;
}

export async function* auditEntryBatches(db: Db, range: RowRange): AsyncGenerator<AuditEntry[]> {
  const sql = postgresClient(db);
  if (sql) {
    yield* cursorBatches(sql, range);
    return;
  }
  let after = 0;
  for (;;) {
    const conds = [gt(auditLog.seq, after), lte(auditLog.seq, range.headSeq)];
    if (range.from) conds.push(gte(auditLog.ts, range.from));
    if (range.to) conds.push(lt(auditLog.ts, range.to));
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(...conds))
      .orderBy(asc(auditLog.seq))
      .limit(PAGE);
    if (rows.length === 0) return;
    yield rows.map(rowToEntry);
    after = rows[rows.length - 1]!.seq;
    if (rows.length < PAGE) return;
  }
}

/**
 * Asks for the next batch before the current one is handed on, so PostgreSQL produces batch n+1
 * while this process hashes and writes batch n (a plain cursor loop alternates: each side idles
 * while the other works; profiled, the export was mostly waiting). On an early exit the batch in
 * flight is awaited first and the cursor closed after it: postgres.js closes a cursor only from
 * the batch it last delivered, and one left mid-fetch would hold its connection.
 */
export async function* readAhead<T>(iterable: AsyncIterable<T>): AsyncGenerator<T> {
  const it = iterable[Symbol.asyncIterator]();
  const ask = () => {
    const p = Promise.resolve(it.next());
    p.catch(() => {}); // observed below; never an unhandled rejection meanwhile
    return p;
  };
  let pending: Promise<IteratorResult<T>> | undefined = ask();
  try {
    for (;;) {
      const r: IteratorResult<T> = await pending;
      pending = undefined;
      if (r.done) return;
      pending = ask();
      yield r.value;
    }
  } finally {
    if (pending) {
      const r = await pending.catch(() => ({ done: true as const, value: undefined }));
      if (!r.done) await it.return?.();
    }
  }
}

type RawRow = {
  seq: string;
  ts: string;
  actor_type: AuditEntry["actorType"];
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: AuditEntry["detail"];
  prev_hash: string;
  hash: string;
};

async function* cursorBatches(sql: postgres.Sql, range: RowRange): AsyncGenerator<AuditEntry[]> {
  // drizzle leaves postgres.js's date parsing off, so the time is formatted in SQL (UTC, milliseconds).
  // Times go as ISO text: drizzle's client has postgres.js's date serialisation switched off too.
  const from = range.from ? sql`and ts >= ${range.from.toISOString()}::timestamptz` : sql``;
  const to = range.to ? sql`and ts < ${range.to.toISOString()}::timestamptz` : sql``;
  const query = sql<RawRow[]>`
    select seq, to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts, actor_type, actor_id, action, target_type, target_id, detail, prev_hash, hash
    from audit_log where seq <= ${range.headSeq} ${from} ${to} order by seq`;
  for await (const rows of readAhead(query.cursor(BATCH))) {
    yield rows.map((r) => ({
      seq: Number(r.seq),
      ts: r.ts, // formatted by the database exactly as Date.toISOString() would (the hash check proves it)
      actorType: r.actor_type,
      actorId: r.actor_id,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      detail: r.detail,
      prevHash: r.prev_hash,
      hash: r.hash,
    }));
  }
}
