// Method: N synthetic records (generated in SQL, spread over 30 days, several flows, clients and
// states), ANALYZEd; then K timed runs of (1) the overview aggregates for 30 days exactly as the
// console runs them, and (2) an in-flight page with a state filter and newest-first sort at a deep
// page, by keyset (what the console does) against the naive OFFSET query (the baseline).
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { listRecords } from "@/lib/elicitation/record-queries";
import { dailyVolume, healthByGroup } from "@/lib/metrics/overview";
import { percentile, round, type BenchResult } from "./stats";

export async function seedSyntheticRecords(db: Db, n: number, flowIds: string[]): Promise<void> {
  const flows = sql.raw(`array[${flowIds.map((f) => `'${f.replace(/'/g, "''")}'`).join(",")}]`);
  for (let start = 1; start <= n; start += 250_000) {
    const end = Math.min(n, start + 249_999);
    await db.execute(sql`
      insert into elicitation_records (id, mode, state, need_kind, subject, tenant_id, client_name, client_version, protocol_version, request_method, request_id, tool_name, flow_id, purpose, route_decision, route_reason, created_at, sent_at, responded_at, updated_at)
      select md5(g::text || 'bench'), (case when g % 4 = 0 then 'url' else 'form' end)::elicitation_mode,
        (array['completed','completed','completed','completed','declined','cancelled','validation_failed','timed_out','sent','not_sent'])[1 + g % 10]::elicitation_state,
        'field', 'user-' || (g % 5000), 'acme', (array['Visual Studio Code','claude-code','cursor-vscode','mcp-inspector'])[1 + g % 4], '1.0', '2025-11-25', 'tools/call', g::text, 'generate_report',
        (${flows})[1 + g % ${flowIds.length}], 'synthetic', 'form', 'bench',
        now() - ((g::bigint * 7919) % 2592000) * interval '1 second', now() - ((g::bigint * 7919) % 2592000) * interval '1 second',
        now() - ((g::bigint * 7919) % 2592000) * interval '1 second' + (g % 120) * interval '1 second', now()
      from generate_series(${start}::int, ${end}::int) g`);
  }
  await db.execute(sql`analyze elicitation_records`);
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

export async function consoleQueries(db: Db, opts: { records: number; runs: number }): Promise<BenchResult[]> {
  const overview = await timed(async () => {
    await healthByGroup(db, { period: "30d", by: "flow" });
    await dailyVolume(db, { period: "30d", by: "flow" });
  }, opts.runs);
  // A deep page: about three quarters of the way through the filtered rows.
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from elicitation_records where state = 'sent'`)) as [{ n: number }];
  const offset = Math.max(0, Math.floor(n * 0.75) - (Math.floor(n * 0.75) % 50));
  const [cursorRow] = rowsOf<{ created_at: string | Date; id: string }>(await db.execute(sql`select created_at, id from elicitation_records where state = 'sent' order by created_at desc, id desc offset ${offset - 1} limit 1`));
  const cursor = cursorRow ? `${new Date(cursorRow.created_at).getTime()}_${cursorRow.id}` : undefined;
  const keyset = await timed(() => listRecords(db, { state: "sent", sort: "newest", after: cursor }), opts.runs);
  const naive = await timed(() => db.execute(sql`select * from elicitation_records where state = 'sent' order by created_at desc, id desc offset ${offset} limit 51`), opts.runs);
  const o95 = percentile(overview, 95);
  const k95 = percentile(keyset, 95);
  const n95 = percentile(naive, 95);
  return [
    { name: `console overview, 30 days, ${opts.records.toLocaleString("en-US")} records`, metric: "p95", unit: "ms", value: round(o95), baseline: null, baselineName: null, ratio: null, target: "<= 100 ms", holds: o95 <= 100, note: "aggregates computed over the raw table (no rollup yet)" },
    { name: `in-flight page at depth ${offset.toLocaleString("en-US")}, state filter, newest first`, metric: "p95", unit: "ms", value: round(k95), baseline: round(n95), baselineName: "naive OFFSET query", ratio: round(k95 / n95), target: "<= 20 ms", holds: k95 <= 20 },
  ];
}
