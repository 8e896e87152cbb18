// The record state machine, written once. Every move a record may make is a row of RECORD_MOVES:
// the states it may leave (`from`), any states it passes through in the same moment (`via`) and
// where it may go (`to`). A caller names the move (`transition(db, id, { move: "answer", to:
// "declined" })`) instead of writing its own `from` list, so a guard cannot drift from the table.
// The terminal and unfinished sets are derived from it: a state with no exit is terminal.
//
// The SQL side: the states are the elicitation_state enum (db/schema.ts, one source for the
// names); revocation and the reconciler build their `state in (...)` lists from the rows below;
// tests/unit/record-states.test.ts checks the migrations' enum and the table agree.
import { elicitationState } from "@/db/schema";

export type RecordState = (typeof elicitationState.enumValues)[number];

interface Move {
  readonly from: readonly RecordState[];
  readonly via?: readonly RecordState[];
  readonly to: readonly RecordState[];
}

export const RECORD_MOVES = {
  // A new record is written `created` and, in the same statement, sent or not (insertRecord).
  dispatch: { from: ["created"], to: ["sent", "not_sent"] },
  // The client's reply to a request in flight, or its absence: an answer (accept records consent
  // only in URL mode and the gateway), a refusal, a timeout, a transport failure.
  answer: { from: ["sent"], to: ["accepted", "declined", "cancelled", "timed_out", "failed"] },
  // A form answer the engine checked: accepted on the way to the verdict, in one moment.
  settleForm: { from: ["sent"], via: ["accepted"], to: ["completed", "validation_failed"] },
  // URL mode: the person refuses after (or instead of) consenting in the client.
  refuseLink: { from: ["sent", "accepted"], to: ["declined", "cancelled"] },
  // URL mode: the connect page's Continue, single use; the provider is next.
  openLink: { from: ["sent", "accepted"], to: ["opened"] },
  // URL mode, the link still live: it expires, the person leaves on the connect page, or the call
  // waiting for it is gone (the gateway's multi-round-trip resume on another instance).
  endLink: { from: ["sent", "accepted", "opened"], to: ["expired", "declined", "cancelled", "failed"] },
  // URL mode: the provider's callback (or a late one after expiry).
  callback: { from: ["opened"], to: ["completed", "failed", "expired"] },
  // Gateway: the upstream reports completion of, or the call ends over, a URL flow it asked for.
  upstreamSettle: { from: ["accepted", "opened"], to: ["completed", "failed"] },
  // Gateway: the upstream call ended with its ask never answered.
  upstreamAbandon: { from: ["created", "sent"], to: ["failed"] },
  // The reconciler: a form record whose call ended on a stopped instance (lib/elicitation/reconcile.ts).
  reconcileForm: { from: ["sent", "accepted"], to: ["timed_out"] },
  // An operator, a kill switch or a policy change stops whatever is unfinished (revoke.ts).
  revoke: { from: ["created", "sent", "accepted", "opened"], to: ["revoked"] },
} as const satisfies Record<string, Move>;

export type RecordMove = keyof typeof RECORD_MOVES;
/** The states a move may end in. */
export type MoveTarget<M extends RecordMove> = (typeof RECORD_MOVES)[M]["to"][number];

const ALL_STATES: readonly RecordState[] = elicitationState.enumValues;
const MOVES: ReadonlyArray<[RecordMove, Move]> = Object.entries(RECORD_MOVES) as Array<[RecordMove, Move]>;

/** Every single step the table allows, as `from -> to` pairs (a `via` chain is split into steps). */
export function allowedSteps(): Array<[RecordState, RecordState]> {
  const out = new Map<string, [RecordState, RecordState]>();
  for (const [, m] of MOVES) {
    for (const to of m.to) {
      const chain = [...(m.via ?? []), to];
      for (const from of m.from) {
        let prev = from;
        for (const next of chain) {
          out.set(`${prev}>${next}`, [prev, next]);
          prev = next;
        }
      }
    }
  }
  return [...out.values()];
}

const EXITS = new Set(allowedSteps().map(([from]) => from));

/** States a record never leaves. */
export const TERMINAL: readonly RecordState[] = ALL_STATES.filter((s) => !EXITS.has(s));
/** States a record may still leave: what revocation, the console's in-flight view and the kill switch's impact count. */
export const UNFINISHED: readonly RecordState[] = ALL_STATES.filter((s) => EXITS.has(s));

export function isTerminal(state: RecordState): boolean {
  return TERMINAL.includes(state);
}

export function isUnfinished(state: string): boolean {
  return (UNFINISHED as readonly string[]).includes(state);
}

/** The states a move leaves from (the guard of its UPDATE). */
export function movableFrom(move: RecordMove): readonly RecordState[] {
  return RECORD_MOVES[move].from;
}

/**
 * The guard a transition runs before it touches the store: the move exists and may end in `to`.
 * The types already say so; this catches a cast or a value that came through `unknown`.
 */
export function checkMove(move: RecordMove, to: RecordState): Move {
  const m: Move | undefined = Object.hasOwn(RECORD_MOVES, move) ? RECORD_MOVES[move] : undefined;
  if (!m) throw new Error(`no record move named ${String(move)}`);
  if (!m.to.includes(to)) throw new Error(`the record move ${move} cannot end in ${to}`);
  return m;
}
