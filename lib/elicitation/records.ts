// Elicitation records and their transition events. A record is written before anything reaches
// the client; each transition is guarded by the state it leaves (a late or duplicate transition
// changes nothing) and leaves one event row. Only names, keywords and hashes are written.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Db, type DbOrTx } from "@/db/client";
import { elicitationEvents, elicitationRecords, type ElicitationRecord, type NewElicitationRecord } from "@/db/schema";
import { countElicitationFinished, countElicitationStarted } from "@/lib/metrics/elicitation-counters";
import { checkMove, isTerminal, type MoveTarget, type RecordMove } from "./record-states";

export { isTerminal, type RecordState } from "./record-states";

/** Opaque record id: 128 bits from the CSPRNG, hex. Also the URL-mode elicitationId. */
export function newRecordId(): string {
  return randomBytes(16).toString("hex");
}

/** The shape of a record id: checked before any lookup of an id that came from outside. */
export const RECORD_ID_PATTERN = /^[0-9a-f]{32}$/;

export function isRecordId(id: string): boolean {
  return RECORD_ID_PATTERN.test(id);
}

export type RecordDraft = Omit<NewElicitationRecord, "state" | "createdAt" | "updatedAt" | "sentAt">;

/**
 * Inserts the record in its first resting state (`sent` or `not_sent`) with the two events that led
 * there, in one statement (one round trip, atomic on its own or inside a caller's transaction).
 */
export async function insertRecord(
  db: DbOrTx,
  draft: RecordDraft,
  state: MoveTarget<"dispatch">,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const now = new Date();
  const insert = db
    .insert(elicitationRecords)
    .values({
      ...draft,
      state,
      createdAt: now,
      updatedAt: now,
      sentAt: state === "sent" ? now : null,
      finishedAt: state === "not_sent" ? now : null,
    })
    .returning({ id: elicitationRecords.id });
  const at = now.toISOString();
  await db.execute(sql`
    with r as (${insert.getSQL()})
    insert into elicitation_events (record_id, from_state, to_state, at, actor_type, actor_id, reason, detail)
    select r.id, v.from_state::elicitation_state, v.to_state::elicitation_state, ${at}::timestamptz, 'system', 'engine', v.reason, v.detail::jsonb
    from r cross join (values
      (1, null, 'created', ${draft.routeReason}, ${JSON.stringify({ route: draft.routeDecision })}),
      (2, 'created', ${state}, null, ${JSON.stringify(detail)})
    ) as v(ord, from_state, to_state, reason, detail)
    order by v.ord`);
  countElicitationStarted(draft.mode, state);
}

export interface Transition<M extends RecordMove = RecordMove> {
  /** The row of the state machine (lib/elicitation/record-states.ts): it says which states the record may leave. */
  move: M;
  to: MoveTarget<M>;
  actor?: { type: "operator" | "system" | "subject"; id: string };
  reason?: string;
  detail?: Record<string, unknown>;
  set?: Partial<
    Pick<
      ElicitationRecord,
      | "validationErrors"
      | "respondedAt"
      | "finishedAt"
      | "droppedContentCount"
      | "lateCallbackAt"
      | "endReason"
      | "stateHash"
      | "nonceHash"
      | "pkceVerifierSealed"
    >
  >;
}

/**
 * Applies a guarded transition in one statement: locks the record if it is in one of the move's
 * `from` states, moves it, and writes one event per step (the move's `via` states, then `to`), the
 * first leaving the state the record was really in. Returns false (and writes nothing) when the
 * record was not in `from`.
 * Works on its own or inside a caller's transaction (then it commits or rolls back with it).
 */
export async function transition<M extends RecordMove>(db: DbOrTx, id: string, t: Transition<M>): Promise<boolean> {
  const move = checkMove(t.move, t.to);
  const now = new Date();
  const actor = t.actor ?? { type: "system" as const, id: "engine" };
  const chain = [...(move.via ?? []), t.to];
  const steps = sql.join(
    chain.map((to, i) => sql`(${i}, ${i === 0 ? null : chain[i - 1]!}, ${to}, ${JSON.stringify(to === t.to ? (t.detail ?? {}) : {})})`),
    sql`, `,
  );
  const update = db
    .update(elicitationRecords)
    .set({ state: t.to, updatedAt: now, ...(isTerminal(t.to) ? { finishedAt: now } : {}), ...t.set })
    .where(sql`${elicitationRecords.id} in (select id from old)`)
    .returning({ id: elicitationRecords.id, mode: elicitationRecords.mode });
  const rows = rowsOf<{ moved: number; mode: string | null }>(
    await db.execute(sql`
      with old as (
        select id, state from elicitation_records where id = ${id} and state in (${sql.join(
          move.from.map((f) => sql`${f}::elicitation_state`),
          sql`, `,
        )}) for update
      ), moved as (${update.getSQL()}), ev as (
        insert into elicitation_events (record_id, from_state, to_state, at, actor_type, actor_id, reason, detail)
        select moved.id, coalesce(v.from_state::elicitation_state, old.state), v.to_state::elicitation_state, ${now.toISOString()}::timestamptz, ${actor.type}, ${actor.id}, ${t.reason ?? null}, v.detail::jsonb
        from moved join old using (id) cross join (values ${steps}) as v(ord, from_state, to_state, detail)
        order by v.ord
      )
      select count(*)::int as moved, min(moved.mode::text) as mode from moved`),
  );
  const moved = (rows[0]?.moved ?? 0) > 0;
  if (moved && isTerminal(t.to)) countElicitationFinished(rows[0]?.mode, t.to);
  return moved;
}

export async function getRecord(db: Db, id: string): Promise<ElicitationRecord | undefined> {
  const [row] = await db.select().from(elicitationRecords).where(eq(elicitationRecords.id, id)).limit(1);
  return row;
}

export async function recordEvents(db: Db, id: string) {
  return db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, id)).orderBy(elicitationEvents.id);
}
