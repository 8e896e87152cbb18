// Exact reconciliation of a load run: what the clients saw against what the store holds. Every
// elicitation the clients saw has exactly one record in the state its outcome implies; no record
// of the run is unaccounted for or left in flight; each record's events form one unbroken path
// from `created` to its state; prevented repeats add up; the overview's rollup equals the
// records; the audit chain verifies.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { isTerminal, type RecordState } from "@/lib/elicitation/records";
import { rollupDrift } from "@/lib/metrics/rollup-check";
import type { CallOutcome } from "./load-clients";

const STATE_FOR: Record<string, RecordState> = {
  completed: "completed",
  declined: "declined",
  cancelled: "cancelled",
  invalid: "validation_failed",
  blocked: "not_sent",
  fallback: "not_sent",
  timed_out: "timed_out",
  failed: "failed",
};
const OUTCOME_FOR_ANSWER: Record<string, string> = { accept: "completed", invalid: "invalid", decline: "declined", cancel: "cancelled" };

export interface Reconciliation {
  ok: boolean;
  problems: string[];
  records: number;
  byState: Record<string, number>;
  preventedRepeats: number;
  auditEntries: number;
  /** Records no client saw an outcome for (the call failed mid-way); each must be closed. */
  unclaimed: number;
}

export async function reconcileLoad(
  db: Db,
  runId: string,
  calls: CallOutcome[],
  opts: { allowUnclaimed?: boolean; allowTransportErrors?: boolean } = {},
): Promise<Reconciliation> {
  const problems: string[] = [];
  const add = (p: string) => void (problems.length < 50 && problems.push(p));
  const rows = rowsOf<{ id: string; subject: string; state: RecordState; prevented_repeats: number }>(
    await db.execute(sql`select id, subject, state, prevented_repeats from elicitation_records where subject like ${`${runId}-%`}`),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const claimed = new Map<string, number>();
  let prevented = 0;
  for (const c of calls) {
    if (c.outcome === "transport_error" || c.outcome === "store_unavailable") {
      if (!opts.allowTransportErrors) add(`client ${c.client}: ${c.outcome} (${c.error ?? "no detail"})`);
      continue;
    }
    if (!c.record) {
      add(`client ${c.client}: outcome ${c.outcome} without a record id`);
      continue;
    }
    const row = byId.get(c.record);
    if (!row) {
      add(`record ${c.record} (${c.outcome}) is not in the store`);
      continue;
    }
    if (row.subject !== c.subject) add(`record ${c.record} belongs to ${row.subject}, answered to ${c.subject}`);
    if (c.outcome === "repeat_prevented") {
      prevented++;
      if (row.state !== "declined" && row.state !== "cancelled") add(`repeat prevented by record ${c.record} in state ${row.state}`);
      continue;
    }
    claimed.set(c.record, (claimed.get(c.record) ?? 0) + 1);
    const want = STATE_FOR[c.outcome];
    if (!want) add(`record ${c.record}: unexpected outcome ${c.outcome}`);
    else if (row.state !== want) add(`record ${c.record}: client saw ${c.outcome}, store says ${row.state}`);
    if (c.answered && OUTCOME_FOR_ANSWER[c.answered] !== c.outcome)
      add(`record ${c.record}: answered ${c.answered} but the outcome was ${c.outcome}`);
  }
  for (const [id, n] of claimed) if (n > 1) add(`record ${id} was the outcome of ${n} calls (duplicate)`);
  let unclaimed = 0;
  for (const r of rows) {
    if (!isTerminal(r.state)) add(`record ${r.id} is still ${r.state}`);
    if (claimed.has(r.id) || r.prevented_repeats > 0) continue;
    if (calls.some((c) => c.outcome === "repeat_prevented" && c.record === r.id)) continue;
    unclaimed++;
    if (!opts.allowUnclaimed) add(`record ${r.id} (${r.state}) was seen by no client (orphan)`);
  }
  const storedPrevented = rows.reduce((s, r) => s + r.prevented_repeats, 0);
  if (storedPrevented !== prevented) add(`prevented repeats: clients saw ${prevented}, the store counted ${storedPrevented}`);

  // Events: one path per record, each step leaving the state the previous one entered, ending in
  // the record's state. Checked in SQL so a large run stays cheap.
  const broken = rowsOf<{ id: string; problem: string }>(
    await db.execute(sql`
      with ev as (
        select e.record_id, e.from_state, e.to_state,
          lag(e.to_state) over (partition by e.record_id order by e.id) as prev_to,
          row_number() over (partition by e.record_id order by e.id) as n,
          row_number() over (partition by e.record_id order by e.id desc) as last
        from elicitation_events e join elicitation_records r on r.id = e.record_id
        where r.subject like ${`${runId}-%`}
      )
      select r.id, 'no events' as problem from elicitation_records r where r.subject like ${`${runId}-%`} and not exists (select 1 from elicitation_events e where e.record_id = r.id)
      union all select record_id, 'first event is not created' from ev where n = 1 and to_state <> 'created'
      union all select record_id, 'event does not continue from the previous state' from ev where n > 1 and from_state is distinct from prev_to
      union all select ev.record_id, 'last event does not match the record' from ev join elicitation_records r on r.id = ev.record_id where ev.last = 1 and ev.to_state <> r.state
      limit 20`),
  );
  for (const b of broken) add(`record ${b.id}: ${b.problem}`);

  // The overview's rollup, maintained by a trigger under concurrent writers, must equal the records.
  for (const d of await rollupDrift(db, 5))
    add(`rollup ${d.key}: ${JSON.stringify(d.rollup)} but the records say ${JSON.stringify(d.fresh)}`);

  const chain = await verifyStoredChain(db);
  if (!chain.ok) add(`audit chain broken at ${chain.brokenSeq}: ${chain.problem}`);
  const byState: Record<string, number> = {};
  for (const r of rows) byState[r.state] = (byState[r.state] ?? 0) + 1;
  return {
    ok: problems.length === 0,
    problems,
    records: rows.length,
    byState,
    preventedRepeats: prevented,
    auditEntries: chain.count,
    unclaimed,
  };
}
