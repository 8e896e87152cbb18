// Appends to the hash-chained audit log inside the caller's transaction, so the entry commits or
// rolls back together with the change it records.
//
// Concurrency: a transaction-scoped advisory lock serialises appenders; the entry is computed from
// the head read under that lock. The database independently refuses an entry that does not extend
// the head (trigger + unique prev_hash), so a writer that skipped the lock fails instead of forking.
// Append last in a business transaction: the lock is held until commit.
import { desc, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { auditLog } from "@/db/schema";
import { AUDIT_ACTION_PATTERN, type AuditAction } from "./actions";
import { computeHash, GENESIS_HASH, type ActorType, type AuditDetail, type AuditEntry } from "./canonical";
import { assertValueFree } from "./value-free";

export const AUDIT_CHAIN_LOCK = 7_301_990;
const INSERT_CHUNK = 5000;

export interface AuditInput {
  actorType: ActorType;
  actorId: string;
  action: AuditAction;
  targetType: string;
  targetId: string;
  detail?: AuditDetail;
  /** Only for seeding synthetic history; live writers always use the clock. */
  at?: Date;
}

interface Head {
  seq: number;
  ts: Date;
  hash: string;
}

async function lockAndReadHead(tx: Tx): Promise<Head | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [head] = await tx
    .select({ seq: auditLog.seq, ts: auditLog.ts, hash: auditLog.hash })
    .from(auditLog)
    .orderBy(desc(auditLog.seq))
    .limit(1);
  return head;
}

function buildEntry(input: AuditInput, prev: { seq: number; ts: Date; hash: string } | undefined): AuditEntry {
  if (!AUDIT_ACTION_PATTERN.test(input.action)) {
    throw new Error(`audit action "${input.action}" is not resource.verb`);
  }
  const detail = input.detail ?? {};
  assertValueFree(detail);
  // Timestamps never go backwards along the chain, so a time-range export is a contiguous run.
  const wanted = input.at ?? new Date();
  const ts = prev && prev.ts.getTime() > wanted.getTime() ? prev.ts : wanted;
  const body = {
    seq: (prev?.seq ?? 0) + 1,
    ts: ts.toISOString(),
    actorType: input.actorType,
    actorId: input.actorId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    detail,
    prevHash: prev?.hash ?? GENESIS_HASH,
  };
  return { ...body, hash: computeHash(body) };
}

function toRow(e: AuditEntry) {
  return { ...e, ts: new Date(e.ts) };
}

/**
 * Inserts a run of entries as one JSON parameter unpacked by the database: one round trip and no
 * per-row parameter building for thousands of rows (bulk revocation, seeds).
 */
async function insertRun(tx: Tx, entries: AuditEntry[]): Promise<void> {
  const rows = JSON.stringify(
    entries.map((e) => ({
      seq: e.seq,
      ts: e.ts,
      actor_type: e.actorType,
      actor_id: e.actorId,
      action: e.action,
      target_type: e.targetType,
      target_id: e.targetId,
      detail: e.detail,
      prev_hash: e.prevHash,
      hash: e.hash,
    })),
  );
  await tx.execute(sql`
    insert into audit_log (seq, ts, actor_type, actor_id, action, target_type, target_id, detail, prev_hash, hash)
    select seq, ts, actor_type, actor_id, action, target_type, target_id, detail, prev_hash, hash
    from jsonb_to_recordset(${rows}::jsonb) as x(seq bigint, ts timestamptz, actor_type actor_type, actor_id text, action text, target_type text, target_id text, detail jsonb, prev_hash text, hash text)
    order by seq`);
}

export async function appendAudit(tx: Tx, input: AuditInput): Promise<AuditEntry> {
  const head = await lockAndReadHead(tx);
  const entry = buildEntry(input, head);
  await tx.insert(auditLog).values(toRow(entry));
  return entry;
}

/** Appends many entries in order under one lock (bulk revocation, small seeds). */
export async function appendAuditBatch(tx: Tx, inputs: readonly AuditInput[]): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  await appendAuditStream(
    tx,
    inputs.length,
    (i) => inputs[i] as AuditInput,
    (e) => out.push(e),
  );
  return out;
}

/** Streams entries in, chunk by chunk, without holding them all in memory (large seeds). */
export async function appendAuditStream(
  tx: Tx,
  count: number,
  make: (i: number) => AuditInput,
  onEntry?: (entry: AuditEntry) => void,
): Promise<{ first?: AuditEntry; last?: AuditEntry }> {
  let prev: Head | undefined = await lockAndReadHead(tx);
  let first: AuditEntry | undefined;
  let last: AuditEntry | undefined;
  let chunk: AuditEntry[] = [];
  for (let i = 0; i < count; i++) {
    const entry = buildEntry(make(i), prev);
    prev = { seq: entry.seq, ts: new Date(entry.ts), hash: entry.hash };
    first ??= entry;
    last = entry;
    onEntry?.(entry);
    chunk.push(entry);
    if (chunk.length === INSERT_CHUNK) {
      await insertRun(tx, chunk);
      chunk = [];
    }
  }
  if (chunk.length) await insertRun(tx, chunk);
  return { first, last };
}
