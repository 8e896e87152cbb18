// Health aggregates for the overview, computed in SQL over the chosen period: outcome rates,
// prevented repeats and time-to-resume percentiles by flow, client (name and version) or mode, and
// daily volume. Groups with fewer than MIN_GROUP records are folded into "other" (no percentiles)
// so that a count cannot single out a person.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { MIN_GROUP } from "./prometheus";

export const PERIODS = { "24h": 1, "7d": 7, "30d": 30 } as const;
export const overviewQuery = z.object({ period: z.enum(["24h", "7d", "30d"]).default("7d"), by: z.enum(["flow", "client", "mode"]).default("flow") });
export type OverviewQuery = z.infer<typeof overviewQuery>;

export interface GroupHealth {
  group: string;
  total: number;
  completed: number;
  declined: number;
  cancelled: number;
  validationFailed: number;
  timedOut: number;
  preventedRepeats: number;
  resumeP50s: number | null;
  resumeP95s: number | null;
}

const GROUP_SQL = {
  flow: sql`coalesce(flow_id, 'setup')`,
  client: sql`client_name || ' ' || client_version`,
  mode: sql`mode::text`,
};

export async function healthByGroup(db: Db, q: OverviewQuery, now = new Date()): Promise<GroupHealth[]> {
  const since = new Date(now.getTime() - PERIODS[q.period] * 86_400_000);
  const rows = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
      select ${GROUP_SQL[q.by]} as grp,
        count(*)::int as total,
        (count(*) filter (where state = 'completed'))::int as completed,
        (count(*) filter (where state = 'declined'))::int as declined,
        (count(*) filter (where state = 'cancelled'))::int as cancelled,
        (count(*) filter (where state = 'validation_failed'))::int as validation_failed,
        (count(*) filter (where state = 'timed_out'))::int as timed_out,
        coalesce(sum(prevented_repeats), 0)::int as prevented,
        percentile_cont(0.5) within group (order by extract(epoch from responded_at - sent_at)) as p50,
        percentile_cont(0.95) within group (order by extract(epoch from responded_at - sent_at)) as p95
      from elicitation_records
      where created_at >= ${since.toISOString()}::timestamptz
      group by 1
      order by total desc`),
  );
  const out: GroupHealth[] = [];
  const other: GroupHealth = { group: "other (small groups)", total: 0, completed: 0, declined: 0, cancelled: 0, validationFailed: 0, timedOut: 0, preventedRepeats: 0, resumeP50s: null, resumeP95s: null };
  for (const r of rows) {
    const g: GroupHealth = {
      group: String(r.grp),
      total: Number(r.total),
      completed: Number(r.completed),
      declined: Number(r.declined),
      cancelled: Number(r.cancelled),
      validationFailed: Number(r.validation_failed),
      timedOut: Number(r.timed_out),
      preventedRepeats: Number(r.prevented),
      resumeP50s: r.p50 === null ? null : Math.round(Number(r.p50)),
      resumeP95s: r.p95 === null ? null : Math.round(Number(r.p95)),
    };
    if (g.total >= MIN_GROUP) {
      out.push(g);
      continue;
    }
    for (const k of ["total", "completed", "declined", "cancelled", "validationFailed", "timedOut", "preventedRepeats"] as const) other[k] += g[k];
  }
  if (other.total > 0) out.push(other);
  return out;
}

export async function dailyVolume(db: Db, q: OverviewQuery, now = new Date()) {
  const since = new Date(now.getTime() - PERIODS[q.period] * 86_400_000);
  const bucket = q.period === "24h" ? sql`date_trunc('hour', created_at)` : sql`date_trunc('day', created_at)`;
  const rows = rowsOf<{ t: string | Date; completed: number; refused: number; failed: number; open: number }>(
    await db.execute(sql`
      select ${bucket} as t,
        (count(*) filter (where state = 'completed'))::int as completed,
        (count(*) filter (where state in ('declined', 'cancelled')))::int as refused,
        (count(*) filter (where state in ('validation_failed', 'timed_out', 'failed', 'expired', 'revoked', 'not_sent')))::int as failed,
        (count(*) filter (where state in ('created', 'sent', 'accepted', 'opened')))::int as open
      from elicitation_records
      where created_at >= ${since.toISOString()}::timestamptz
      group by 1 order by 1`),
  );
  return rows.map((r) => ({ t: new Date(r.t).toISOString().slice(0, q.period === "24h" ? 13 : 10), completed: Number(r.completed), refused: Number(r.refused), failed: Number(r.failed), open: Number(r.open) }));
}
