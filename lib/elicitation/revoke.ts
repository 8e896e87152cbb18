// Revocation of unfinished handles: by id, or every pending one (optionally for one flow). Each
// revoked record gets its event and is named in the audit log (its own entry, or in bulk one entry
// per batch of ids: revocationAudit below), in one transaction. A late callback for a
// revoked record attaches nothing (lib/connect/flow.ts).
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { elicitationRecords, flows } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAuditBatch, type AuditInput } from "@/lib/audit/writer";
import { countElicitationFinished } from "@/lib/metrics/elicitation-counters";
import { movableFrom } from "./record-states";

export interface RevokeSelector {
  ids?: string[];
  /** `workflow`: the records of every flow of that workflow, whichever client profile. */
  pending?: { flowId?: string; workflow?: string; mode?: "form" | "url"; upstreamId?: string };
}

export async function revokeRecordsTx(
  tx: Tx,
  actor: { type: "operator" | "system"; id: string },
  selector: RevokeSelector,
  reason: string,
): Promise<string[]> {
  // The revoke row of the state machine says which states may be revoked (every unfinished one).
  const conds: SQL[] = [inArray(elicitationRecords.state, [...movableFrom("revoke")])];
  if (selector.ids) conds.push(inArray(elicitationRecords.id, selector.ids));
  if (selector.pending?.flowId) conds.push(eq(elicitationRecords.flowId, selector.pending.flowId));
  if (selector.pending?.workflow)
    conds.push(
      inArray(elicitationRecords.flowId, tx.select({ id: flows.id }).from(flows).where(eq(flows.workflow, selector.pending.workflow))),
    );
  if (selector.pending?.mode) conds.push(eq(elicitationRecords.mode, selector.pending.mode));
  // Gateway mode: the records one upstream MCP server asked for (kill switch `upstream:ID`).
  if (selector.pending?.upstreamId) conds.push(eq(elicitationRecords.upstreamId, selector.pending.upstreamId));
  if (!selector.ids && !selector.pending) throw new Error("say which records to revoke");
  const at = new Date().toISOString();
  // One statement: lock the matching records, move them, and write each one's event with the
  // state it really left (however many there are).
  const rows = rowsOf<{ id: string; mode: string }>(
    await tx.execute(sql`
      with old as (
        select id, state from elicitation_records where ${and(...conds)} for update
      ), moved as (
        update elicitation_records r set state = 'revoked', updated_at = ${at}::timestamptz, finished_at = ${at}::timestamptz
        from old where r.id = old.id returning r.id, r.mode, old.state as from_state
      ), ev as (
        insert into elicitation_events (record_id, from_state, to_state, at, actor_type, actor_id, reason, detail)
        select id, from_state, 'revoked', ${at}::timestamptz, ${actor.type}, ${actor.id}, ${reason}, '{}'::jsonb from moved
        returning record_id
      )
      select moved.id, moved.mode::text as mode from moved join ev on ev.record_id = moved.id`),
  );
  if (rows.length === 0) return [];
  for (const mode of ["form", "url"]) countElicitationFinished(mode, "revoked", rows.filter((r) => r.mode === mode).length);
  const ids = rows.map((r) => r.id);
  await appendAuditBatch(tx, revocationAudit(actor, ids, reason));
  return ids;
}

/** Up to this many revoked records, each gets its own audit entry. */
export const PER_RECORD_AUDIT_MAX = 100;
/** Above it, one entry names up to this many records: the most a value-free detail may list (lib/audit/value-free.ts). */
export const AUDIT_BATCH_IDS = 64;

/**
 * Every revoked record is named in the audit chain. A small revocation (an operator's, a kill
 * switch over a few handles) writes one entry per record, found by its target like any other. A
 * bulk one writes one entry per batch of up to AUDIT_BATCH_IDS records, listing their ids in
 * `detail.ids` (target `elicitation_batch`, `first-id..last-id`): each id is still hashed into the
 * chain, while 100,000 entries (each through the chain trigger and five indexes) cost more than
 * the revocation itself (docs/PERFORMANCE.md).
 */
export function revocationAudit(actor: { type: "operator" | "system"; id: string }, ids: string[], reason: string): AuditInput[] {
  const base = { actorType: actor.type, actorId: actor.id, action: AUDIT_ACTIONS.recordRevoked };
  if (ids.length <= PER_RECORD_AUDIT_MAX)
    return ids.map((id) => ({ ...base, targetType: "elicitation", targetId: id, detail: { reason } }));
  const out: AuditInput[] = [];
  for (let i = 0; i < ids.length; i += AUDIT_BATCH_IDS) {
    const batch = ids.slice(i, i + AUDIT_BATCH_IDS);
    out.push({
      ...base,
      targetType: "elicitation_batch",
      targetId: `${batch[0]}..${batch[batch.length - 1]}`,
      detail: { reason, count: batch.length, ids: batch },
    });
  }
  return out;
}

export async function revokeRecords(
  db: Db,
  actor: { type: "operator" | "system"; id: string },
  selector: RevokeSelector,
  reason: string,
): Promise<string[]> {
  return db.transaction((tx) => revokeRecordsTx(tx, actor, selector, reason));
}
