// Which client names and versions connected, which elicitation modes each declared (from the
// sessions' own initialize, never from the product name), which protocol revisions they spoke, and
// how their elicitations fared. A 2026-07-28 client opens no session (the revision is stateless),
// so clients are the union of sessions and records, and a modern-only client shows 0 sessions.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

export interface ClientRow {
  name: string;
  version: string;
  sessions: number;
  formSessions: number;
  urlSessions: number;
  noElicitationSessions: number;
  lastSeen: Date;
  /** Protocol revisions this client version used, from its sessions and its records. */
  revisions: string[];
  records: number;
  completed: number;
  fallbacks: number;
}

export async function clientCompatibility(db: Db): Promise<ClientRow[]> {
  const rows = rowsOf<Record<string, string | number | Date | string[]>>(
    await db.execute(sql`
      with s as (
        select client_name, client_version, count(*)::int as sessions,
          (count(*) filter (where form_declared))::int as form_sessions,
          (count(*) filter (where url_declared))::int as url_sessions,
          (count(*) filter (where not form_declared and not url_declared))::int as none_sessions,
          max(last_seen_at) as last_seen, array_agg(distinct protocol_version) as revisions
        from mcp_sessions group by 1, 2
      ), r as (
        select client_name, client_version, count(*)::int as records,
          (count(*) filter (where state = 'completed'))::int as completed,
          (count(*) filter (where route_decision = 'fallback'))::int as fallbacks,
          max(created_at) as last_seen, array_agg(distinct protocol_version) as revisions
        from elicitation_records group by 1, 2
      )
      select coalesce(s.client_name, r.client_name) as client_name, coalesce(s.client_version, r.client_version) as client_version,
        coalesce(s.sessions, 0) as sessions, coalesce(s.form_sessions, 0) as form_sessions, coalesce(s.url_sessions, 0) as url_sessions,
        coalesce(s.none_sessions, 0) as none_sessions, greatest(s.last_seen, r.last_seen) as last_seen,
        array(select distinct v from unnest(coalesce(s.revisions, '{}'::text[]) || coalesce(r.revisions, '{}'::text[])) as v order by v) as revisions,
        coalesce(r.records, 0) as records, coalesce(r.completed, 0) as completed, coalesce(r.fallbacks, 0) as fallbacks
      from s full outer join r on s.client_name = r.client_name and s.client_version = r.client_version
      order by 3 desc, 1, 2`),
  );
  return rows.map((r) => ({
    name: String(r.client_name),
    version: String(r.client_version),
    sessions: Number(r.sessions),
    formSessions: Number(r.form_sessions),
    urlSessions: Number(r.url_sessions),
    noElicitationSessions: Number(r.none_sessions),
    lastSeen: new Date(r.last_seen as string),
    revisions: Array.isArray(r.revisions) ? (r.revisions as unknown[]).map(String) : [],
    records: Number(r.records),
    completed: Number(r.completed),
    fallbacks: Number(r.fallbacks),
  }));
}
