// Compares the hourly rollup with a fresh aggregate of the records themselves and returns the keys
// that differ (none, when the trigger did its job). Used by the load reconciliation and tests; an
// operator can run it after restoring a backup or editing records by hand.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

// The rollup's rows computed from the records themselves: the same grouping as migration 0002's
// trigger as migration 0011 replaced it, and its backfill (which, being SQL files, cannot share it).
const FRESH_ROLLUP = sql`
  select date_trunc('hour', created_at, 'UTC') as hour, coalesce(flow_id, '') as flow_id, client_name, client_version, protocol_version, mode, state,
    coalesce(end_reason::text, '') as end_reason, record_resume_bucket(sent_at, responded_at) as resume_bucket, count(*)::bigint as records,
    coalesce(sum(prevented_repeats), 0)::bigint as prevented_repeats
  from elicitation_records group by 1, 2, 3, 4, 5, 6, 7, 8, 9`;

const KEY = sql.raw("hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket");

export interface RollupDrift {
  key: string;
  rollup: { records: number; prevented: number };
  fresh: { records: number; prevented: number };
}

export async function rollupDrift(db: Db, limit = 20): Promise<RollupDrift[]> {
  const rows = rowsOf<{ key: string; kr: string | number; kp: string | number; fr: string | number; fp: string | number }>(
    await db.execute(sql`
      with fresh as (
        select ${KEY}, records, prevented_repeats as prevented from (${FRESH_ROLLUP}) f
      ), kept as (
        select ${KEY}, records, prevented_repeats as prevented from record_rollup where records <> 0 or prevented_repeats <> 0
      )
      select concat_ws(' ', to_char(coalesce(k.hour, f.hour) at time zone 'UTC', 'YYYY-MM-DD"T"HH24'), coalesce(k.flow_id, f.flow_id), coalesce(k.client_name, f.client_name),
          coalesce(k.protocol_version, f.protocol_version), coalesce(k.mode, f.mode)::text, coalesce(k.state, f.state)::text,
          nullif(coalesce(k.end_reason, f.end_reason), ''), coalesce(k.resume_bucket, f.resume_bucket)::text) as key,
        coalesce(k.records, 0) as kr, coalesce(k.prevented, 0) as kp, coalesce(f.records, 0) as fr, coalesce(f.prevented, 0) as fp
      from kept k full join fresh f using (${KEY})
      where k.records is distinct from f.records or k.prevented is distinct from f.prevented
      limit ${limit}`),
  );
  return rows.map((r) => ({
    key: r.key,
    rollup: { records: Number(r.kr), prevented: Number(r.kp) },
    fresh: { records: Number(r.fr), prevented: Number(r.fp) },
  }));
}

/**
 * Rebuilds the rollup from the records (the same statement as migration 0011's backfill), under a
 * lock that holds record writes back meanwhile. For repairs after a restore or a bulk load that
 * ran with the trigger disabled.
 */
export async function rebuildRollup(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`lock table elicitation_records in share row exclusive mode`);
    await tx.execute(sql`delete from record_rollup`);
    await tx.execute(sql`insert into record_rollup (${KEY}, records, prevented_repeats) ${FRESH_ROLLUP}`);
  });
}
