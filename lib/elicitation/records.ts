// Elicitation records and their transition events. A record is written before anything reaches
// the client; each transition is guarded by the state it leaves (a late or duplicate transition
// changes nothing) and leaves one event row. Only names, keywords and hashes are written.
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationEvents, elicitationRecords, type ElicitationRecord, type NewElicitationRecord } from "@/db/schema";

export type RecordState = ElicitationRecord["state"];

/** Opaque record id: 128 bits from the CSPRNG, hex. Also the URL-mode elicitationId. */
export function newRecordId(): string {
  return randomBytes(16).toString("hex");
}

export type RecordDraft = Omit<NewElicitationRecord, "state" | "createdAt" | "updatedAt" | "sentAt">;

/** Inserts the record in its first resting state (`sent` or `not_sent`), with the events that led there. */
export async function insertRecord(db: Db, draft: RecordDraft, state: "sent" | "not_sent", detail: Record<string, unknown> = {}): Promise<ElicitationRecord> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(elicitationRecords)
      .values({ ...draft, state, createdAt: now, updatedAt: now, sentAt: state === "sent" ? now : null, finishedAt: state === "not_sent" ? now : null })
      .returning();
    await tx.insert(elicitationEvents).values([
      { recordId: draft.id, fromState: null, toState: "created", at: now, actorType: "system", actorId: "engine", reason: draft.routeReason, detail: { route: draft.routeDecision } },
      { recordId: draft.id, fromState: "created", toState: state, at: now, actorType: "system", actorId: "engine", detail },
    ]);
    return row!;
  });
}

export interface Transition {
  from: RecordState[];
  /** Intermediate states passed through in the same moment (e.g. accepted on the way to completed). */
  via?: RecordState[];
  to: RecordState;
  actor?: { type: "operator" | "system" | "subject"; id: string };
  reason?: string;
  detail?: Record<string, unknown>;
  set?: Partial<Pick<ElicitationRecord, "validationErrors" | "respondedAt" | "finishedAt" | "droppedContentCount" | "lateCallbackAt" | "stateHash" | "nonceHash" | "pkceVerifierSealed">>;
}

const TERMINAL: RecordState[] = ["not_sent", "completed", "validation_failed", "declined", "cancelled", "timed_out", "failed", "revoked", "expired"];

export function isTerminal(state: RecordState): boolean {
  return TERMINAL.includes(state);
}

/** Applies a guarded transition; returns false (and writes nothing) when the record was not in `from`. */
export async function transition(db: Db, id: string, t: Transition): Promise<boolean> {
  const now = new Date();
  const actor = t.actor ?? { type: "system" as const, id: "engine" };
  return db.transaction(async (tx) => {
    const [prev] = await tx
      .update(elicitationRecords)
      .set({ state: t.to, updatedAt: now, ...(isTerminal(t.to) ? { finishedAt: now } : {}), ...t.set })
      .where(and(eq(elicitationRecords.id, id), inArray(elicitationRecords.state, t.from)))
      .returning({ id: elicitationRecords.id });
    if (!prev) return false;
    const chain = [...(t.via ?? []), t.to];
    // The from-state of the first event: the guarded update matched one of t.from.
    const [{ from } = { from: t.from[0]! }] = await tx
      .select({ from: sql<RecordState>`${elicitationEvents.toState}` })
      .from(elicitationEvents)
      .where(eq(elicitationEvents.recordId, id))
      .orderBy(sql`${elicitationEvents.id} desc`)
      .limit(1);
    let fromState: RecordState = from;
    await tx.insert(elicitationEvents).values(
      chain.map((to) => {
        const row = { recordId: id, fromState, toState: to, at: now, actorType: actor.type, actorId: actor.id, reason: t.reason ?? null, detail: to === t.to ? (t.detail ?? {}) : {} };
        fromState = to;
        return row;
      }),
    );
    return true;
  });
}

export async function getRecord(db: Db, id: string): Promise<ElicitationRecord | undefined> {
  const [row] = await db.select().from(elicitationRecords).where(eq(elicitationRecords.id, id)).limit(1);
  return row;
}

export async function recordEvents(db: Db, id: string) {
  return db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, id)).orderBy(elicitationEvents.id);
}
