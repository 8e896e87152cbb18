// Method: N synthetic records (generated in SQL, spread over 30 days, several flows, clients and
// states; the rollup trigger fires for each), ANALYZEd; then K timed runs of (1) the overview
// aggregates for 30 days exactly as the console runs them (from the rollup) against the same
// aggregates computed over the raw table (the baseline), and (2) an in-flight page with a state
// filter and newest-first sort at a deep page, by keyset (what the console does) against the
// naive OFFSET query (the baseline).
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { listRecords } from "@/lib/elicitation/record-queries";
import { dailyVolume, healthByGroup } from "@/lib/metrics/overview";
import { storeCounts } from "@/lib/metrics/store-counts";
import { killSwitchImpact } from "@/lib/policy/kill-switch-impact";
import { percentile, round, type BenchResult } from "./stats";

export async function seedSyntheticRecords(db: Db, n: number, flowIds: string[]): Promise<void> {
  // Through the rollup trigger, as any write: statement-level, so each 250k-row insert makes one
  // upsert per rollup key.
  const flows = sql.raw(`array[${flowIds.map((f) => `'${f.replace(/'/g, "''")}'`).join(",")}]`);
  for (let start = 1; start <= n; start += 250_000) {
    const end = Math.min(n, start + 249_999);
    // Unfinished records are few and recent, as in a deployment whose reconciler closes anything
    // past its timeout (one in a thousand here, all within the last ten minutes).
    await db.execute(sql`
      insert into elicitation_records (id, mode, state, need_kind, subject, tenant_id, client_name, client_version, protocol_version, request_method, request_id, tool_name, flow_id, purpose, route_decision, route_reason, created_at, sent_at, responded_at, updated_at)
      select md5(g::text || 'bench'), (case when g % 4 = 0 then 'url' else 'form' end)::elicitation_mode, x.state::elicitation_state,
        'field', 'user-' || (g % 5000), 'acme', (array['Visual Studio Code','claude-code','cursor-vscode','mcp-inspector'])[1 + g % 4], '1.0', '2025-11-25', 'tools/call', g::text, 'generate_report',
        (${flows})[1 + g % ${flowIds.length}], 'synthetic', 'form', 'bench',
        x.at, x.at, case when x.state = 'sent' then null else x.at + (g % 120) * interval '1 second' end, now()
      from generate_series(${start}::int, ${end}::int) g,
      lateral (select
        case when g % 1000 = 8 then 'sent' else (array['completed','completed','completed','completed','declined','cancelled','validation_failed','timed_out','timed_out','not_sent'])[1 + g % 10] end as state,
        case when g % 1000 = 8 then now() - (g % 600) * interval '1 second' else now() - ((g::bigint * 7919) % 2592000) * interval '1 second' end as at) x`);
  }
  await db.execute(sql`analyze elicitation_records`);
  await db.execute(sql`analyze record_rollup`);
}

async function timed(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

// The overview's aggregates computed straight from the records: what the console did before the
// rollup, kept here as the baseline.
const rawOverview = (db: Db) =>
  Promise.all([
    db.execute(sql`
      select coalesce(flow_id, 'setup') as grp, count(*)::int as total, (count(*) filter (where state = 'completed'))::int as completed,
        (count(*) filter (where state = 'declined'))::int as declined, coalesce(sum(prevented_repeats), 0)::int as prevented,
        percentile_cont(0.5) within group (order by extract(epoch from responded_at - sent_at)) as p50,
        percentile_cont(0.95) within group (order by extract(epoch from responded_at - sent_at)) as p95
      from elicitation_records where created_at >= now() - interval '30 days' group by 1`),
    db.execute(
      sql`select date_trunc('day', created_at) as t, count(*) filter (where state = 'completed') from elicitation_records where created_at >= now() - interval '30 days' group by 1`,
    ),
  ]);

export async function consoleQueries(db: Db, opts: { records: number; runs: number }): Promise<BenchResult[]> {
  // Every query of the overview page, all at once, as the page runs them.
  const overview = await timed(
    () =>
      Promise.all([
        storeCounts(db),
        healthByGroup(db, { period: "30d", by: "flow" }),
        dailyVolume(db, { period: "30d", by: "flow" }),
        killSwitchImpact(db),
      ]),
    opts.runs,
  );
  const overviewRaw = await timed(() => rawOverview(db), Math.min(opts.runs, 5));
  // A deep page: about three quarters of the way through the filtered rows.
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from elicitation_records where state = 'completed'`),
  ) as [{ n: number }];
  const offset = Math.max(0, Math.floor(n * 0.75) - (Math.floor(n * 0.75) % 50));
  const [cursorRow] = rowsOf<{ created_at: string | Date; id: string }>(
    await db.execute(
      sql`select created_at, id from elicitation_records where state = 'completed' order by created_at desc, id desc offset ${offset - 1} limit 1`,
    ),
  );
  const cursor = cursorRow ? `${new Date(cursorRow.created_at).getTime()}_${cursorRow.id}` : undefined;
  const keyset = await timed(() => listRecords(db, { state: "completed", sort: "newest", after: cursor }), opts.runs);
  const naive = await timed(
    () =>
      db.execute(
        sql`select * from elicitation_records where state = 'completed' order by created_at desc, id desc offset ${offset} limit 51`,
      ),
    opts.runs,
  );
  const o95 = percentile(overview, 95);
  const r95 = percentile(overviewRaw, 95);
  const k95 = percentile(keyset, 95);
  const n95 = percentile(naive, 95);
  return [
    {
      name: `console overview, 30 days, ${opts.records.toLocaleString("en-US")} records`,
      metric: "p95",
      unit: "ms",
      value: round(o95),
      baseline: round(r95),
      baselineName: "same aggregates over the raw table",
      ratio: round(o95 / r95),
      target: "<= 100 ms",
      holds: o95 <= 100,
      note: "hourly rollup kept by a trigger with every record write",
    },
    {
      name: `records page at depth ${offset.toLocaleString("en-US")}, state filter, newest first`,
      metric: "p95",
      unit: "ms",
      value: round(k95),
      baseline: round(n95),
      baselineName: "naive OFFSET query",
      ratio: round(k95 / n95),
      target: "<= 20 ms",
      holds: k95 <= 20,
    },
  ];
}
