// Health aggregates for the overview, computed in SQL over the chosen period from the hourly
// rollup: outcome rates, prevented repeats and time-to-resume percentiles by flow, client (name
// and version), mode or protocol revision, and daily volume. Three endings without an answer are
// kept apart: the person cancelled, the client went away (cancelled with the end reason
// client_disconnected), nobody answered in time (timed_out). Groups with fewer than MIN_GROUP records are folded into
// "other" (no percentiles) so that a count cannot single out a person.
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { UNFINISHED } from "@/lib/elicitation/record-states";
import { CLIENT_DISCONNECTED } from "@/lib/elicitation/wire";
import { MIN_GROUP } from "./prometheus";
import { percentileFromHistogram } from "./resume-buckets";

/** The periods the overview offers, in days; and how it can group. The page's links come from these. */
export const PERIODS = { "24h": 1, "7d": 7, "30d": 30 } as const;
export const PERIOD_CHOICES = ["24h", "7d", "30d"] as const satisfies ReadonlyArray<keyof typeof PERIODS>;
export const GROUP_CHOICES = ["flow", "client", "mode", "revision"] as const;
export const overviewQuery = z.object({ period: z.enum(PERIOD_CHOICES).default("7d"), by: z.enum(GROUP_CHOICES).default("flow") });
export type OverviewQuery = z.infer<typeof overviewQuery>;

export interface GroupHealth {
  group: string;
  total: number;
  completed: number;
  declined: number;
  /** The person cancelled. */
  cancelled: number;
  /** The client went away while the record was pending (not a person's cancel). */
  clientDisconnected: number;
  validationFailed: number;
  timedOut: number;
  preventedRepeats: number;
  resumeP50s: number | null;
  resumeP95s: number | null;
}

// Group expressions over the slices below (flow '' is the setup page, outside any flow).
const GROUP_SQL: Record<(typeof GROUP_CHOICES)[number], SQL> = {
  flow: sql`case when flow_id = '' then 'setup' else flow_id end`,
  client: sql`client_name || ' ' || client_version`,
  mode: sql`mode::text`,
  // Records written before the rollup knew the revision have '' (none remain after migration 0011's rebuild).
  revision: sql`case when protocol_version = '' then 'unknown' else protocol_version end`,
};

/**
 * The period as slices of (time, flow, client, revision, mode, state, end reason, resume bucket,
 * count, prevented):
 * whole UTC hours from the rollup (maintained by a trigger with every record write), plus the raw
 * records of the partial first hour. Summing these is exact for counts and exact to the bucket
 * for time-to-resume, and reads a few thousand rows whatever the table's size.
 */
function slices(since: Date) {
  const firstHour = new Date(Math.ceil(since.getTime() / 3_600_000) * 3_600_000).toISOString();
  const from = since.toISOString();
  return sql`
    select hour as at, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, records as n, prevented_repeats as prevented
      from record_rollup where hour >= ${firstHour}::timestamptz and records <> 0
    union all
    select created_at, coalesce(flow_id, ''), client_name, client_version, protocol_version, mode, state, coalesce(end_reason::text, ''),
      record_resume_bucket(sent_at, responded_at), 1, prevented_repeats
      from elicitation_records where created_at >= ${from}::timestamptz and created_at < ${firstHour}::timestamptz`;
}

const COUNTED = {
  completed: "completed",
  declined: "declined",
  cancelled: "cancelled",
  validation_failed: "validationFailed",
  timed_out: "timedOut",
} as const;

export async function healthByGroup(db: Db, q: OverviewQuery, now = new Date()): Promise<GroupHealth[]> {
  const since = new Date(now.getTime() - PERIODS[q.period] * 86_400_000);
  const rows = rowsOf<{ grp: string; state: string; reason: string; bucket: number; n: string | number; prevented: string | number }>(
    await db.execute(sql`
      with s as (${slices(since)})
      select ${GROUP_SQL[q.by]} as grp, state::text as state, end_reason as reason, resume_bucket as bucket, sum(n)::bigint as n, sum(prevented)::bigint as prevented
      from s group by 1, 2, 3, 4`),
  );
  const groups = new Map<string, GroupHealth & { hist: Map<number, number> }>();
  for (const r of rows) {
    let g = groups.get(r.grp);
    if (!g)
      groups.set(
        r.grp,
        (g = {
          group: r.grp,
          total: 0,
          completed: 0,
          declined: 0,
          cancelled: 0,
          clientDisconnected: 0,
          validationFailed: 0,
          timedOut: 0,
          preventedRepeats: 0,
          resumeP50s: null,
          resumeP95s: null,
          hist: new Map(),
        }),
      );
    const n = Number(r.n);
    g.total += n;
    g.preventedRepeats += Number(r.prevented);
    const counted =
      r.state === "cancelled" && r.reason === CLIENT_DISCONNECTED ? "clientDisconnected" : COUNTED[r.state as keyof typeof COUNTED];
    if (counted) g[counted] += n;
    g.hist.set(Number(r.bucket), (g.hist.get(Number(r.bucket)) ?? 0) + n);
  }
  const out: GroupHealth[] = [];
  const other: GroupHealth = {
    group: "other (small groups)",
    total: 0,
    completed: 0,
    declined: 0,
    cancelled: 0,
    clientDisconnected: 0,
    validationFailed: 0,
    timedOut: 0,
    preventedRepeats: 0,
    resumeP50s: null,
    resumeP95s: null,
  };
  for (const { hist, ...g } of [...groups.values()].sort((a, b) => b.total - a.total || a.group.localeCompare(b.group))) {
    if (g.total === 0) continue;
    if (g.total >= MIN_GROUP) {
      const p50 = percentileFromHistogram(hist, 0.5);
      const p95 = percentileFromHistogram(hist, 0.95);
      out.push({ ...g, resumeP50s: p50 === null ? null : Math.round(p50), resumeP95s: p95 === null ? null : Math.round(p95) });
      continue;
    }
    for (const k of [
      "total",
      "completed",
      "declined",
      "cancelled",
      "clientDisconnected",
      "validationFailed",
      "timedOut",
      "preventedRepeats",
    ] as const)
      other[k] += g[k];
  }
  if (other.total > 0) out.push(other);
  return out;
}

export async function dailyVolume(db: Db, q: OverviewQuery, now = new Date()) {
  const since = new Date(now.getTime() - PERIODS[q.period] * 86_400_000);
  const unit = q.period === "24h" ? sql.raw("'hour'") : sql.raw("'day'");
  const rows = rowsOf<{ t: string | Date; completed: number; refused: number; failed: number; open: number }>(
    await db.execute(sql`
      with s as (${slices(since)})
      select date_trunc(${unit}, at, 'UTC') as t,
        (coalesce(sum(n) filter (where state = 'completed'), 0))::int as completed,
        -- A person's decline or cancel is a refusal; a client that went away is not the person's doing.
        (coalesce(sum(n) filter (where state in ('declined', 'cancelled') and end_reason = ''), 0))::int as refused,
        (coalesce(sum(n) filter (where state in ('validation_failed', 'timed_out', 'failed', 'expired', 'revoked', 'not_sent') or (state = 'cancelled' and end_reason <> '')), 0))::int as failed,
        (coalesce(sum(n) filter (where state in (${sql.join(
          UNFINISHED.map((st) => sql`${st}::elicitation_state`),
          sql`, `,
        )})), 0))::int as open
      from s group by 1 order by 1`),
  );
  return rows
    .map((r) => ({
      t: new Date(r.t).toISOString().slice(0, q.period === "24h" ? 13 : 10),
      completed: Number(r.completed),
      refused: Number(r.refused),
      failed: Number(r.failed),
      open: Number(r.open),
    }))
    .filter((r) => r.completed + r.refused + r.failed + r.open > 0);
}
