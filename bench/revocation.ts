// Method: K unfinished URL-mode handles inserted in SQL, then one bulk revocation through the real
// service (state change, one event and one chained audit entry per record, one transaction), timed.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { round, type BenchResult } from "./stats";

export async function bulkRevocation(db: Db, k: number): Promise<BenchResult[]> {
  await db.execute(sql`
    insert into elicitation_records (id, mode, state, need_kind, subject, tenant_id, client_name, client_version, protocol_version, request_method, request_id, tool_name, purpose, route_decision, route_reason, expires_at, created_at, updated_at)
    select md5(g::text || 'revoke'), 'url', 'sent', 'grant', 'user-' || g, 'acme', 'bench', '1', '2025-11-25', 'tools/call', g::text, 'list_repositories', 'p', 'url', 'bench', now() + interval '1 hour', now(), now()
    from generate_series(1, ${k}::int) g`);
  const [before] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log`));
  const t = performance.now();
  const ids = await revokeRecords(db, { type: "system", id: "bench" }, { pending: { mode: "url" } }, "bench revocation");
  const ms = performance.now() - t;
  const [after] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log`));
  const audited = Number(after!.n) - Number(before!.n);
  if (audited !== ids.length) throw new Error(`revoked ${ids.length} but audited ${audited}`);
  return [{ name: `bulk revocation of ${ids.length.toLocaleString("en-US")} handles, each audited`, metric: "time", unit: "ms", value: round(ms, 0), baseline: null, baselineName: null, ratio: null, target: "<= 2000 ms", holds: ms <= 2000, note: "one statement moves the records and writes their events; one audit entry per record; the time is PostgreSQL's index work (docs/PERFORMANCE.md)" }];
}
