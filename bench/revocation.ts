// Method: K unfinished URL-mode handles inserted in SQL, then one bulk revocation through the real
// service (state change, one event per record, every record named in the chained audit log, one transaction), timed.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { round, type BenchResult } from "./stats";

export async function bulkRevocation(db: Db, k: number): Promise<BenchResult[]> {
  await db.execute(sql`
    insert into elicitation_records (id, mode, state, need_kind, subject, tenant_id, client_name, client_version, protocol_version, request_method, request_id, tool_name, purpose, route_decision, route_reason, expires_at, created_at, updated_at)
    select md5(g::text || 'revoke'), 'url', 'sent', 'grant', 'user-' || g, 'acme', 'bench', '1', '2025-11-25', 'tools/call', g::text, 'list_repositories', 'p', 'url', 'bench', now() + interval '1 hour', now(), now()
    from generate_series(1, ${k}::int) g`);
  const [before] = rowsOf<{ last: number }>(await db.execute(sql`select coalesce(max(seq), 0)::bigint as last from audit_log`));
  const t = performance.now();
  const ids = await revokeRecords(db, { type: "system", id: "bench" }, { pending: { mode: "url" } }, "bench revocation");
  const ms = performance.now() - t;
  // Every revoked record is named in the audit entries this revocation wrote, exactly once.
  const [named] = rowsOf<{ entries: number; ids: number; distinct_ids: number }>(
    await db.execute(sql`
      with mine as (select * from audit_log where seq > ${Number(before!.last)} and action = 'record.revoked'),
      named as (select jsonb_array_elements_text(detail->'ids') as id from mine where target_type = 'elicitation_batch'
                union all select target_id from mine where target_type = 'elicitation')
      select (select count(*)::int from mine) as entries, count(*)::int as ids, count(distinct id)::int as distinct_ids from named`),
  );
  if (named!.ids !== ids.length || named!.distinct_ids !== ids.length)
    throw new Error(`revoked ${ids.length} but the audit names ${named!.distinct_ids} (${named!.ids} mentions)`);
  return [
    {
      name: `bulk revocation of ${ids.length.toLocaleString("en-US")} handles, each named in the audit`,
      metric: "time",
      unit: "ms",
      value: round(ms, 0),
      baseline: null,
      baselineName: null,
      ratio: null,
      target: "<= 2000 ms",
      holds: ms <= 2000,
      note: `one statement moves the records and writes their events; ${named!.entries} audit entries, each listing up to 64 record ids (lib/elicitation/revoke.ts); the rest is PostgreSQL's index work (docs/PERFORMANCE.md)`,
    },
  ];
}
