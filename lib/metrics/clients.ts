// Which client names and versions connected, which elicitation modes each declared (from the
// sessions' own initialize, never from the product name), and how their elicitations fared.
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
  records: number;
  completed: number;
  fallbacks: number;
}

export async function clientCompatibility(db: Db): Promise<ClientRow[]> {
  const rows = rowsOf<Record<string, string | number | Date>>(
    await db.execute(sql`
      with s as (
        select client_name, client_version, count(*)::int as sessions,
          (count(*) filter (where form_declared))::int as form_sessions,
          (count(*) filter (where url_declared))::int as url_sessions,
          (count(*) filter (where not form_declared and not url_declared))::int as none_sessions,
          max(last_seen_at) as last_seen
        from mcp_sessions group by 1, 2
      ), r as (
        select client_name, client_version, count(*)::int as records,
          (count(*) filter (where state = 'completed'))::int as completed,
          (count(*) filter (where route_decision = 'fallback'))::int as fallbacks
        from elicitation_records group by 1, 2
      )
      select s.*, coalesce(r.records, 0) as records, coalesce(r.completed, 0) as completed, coalesce(r.fallbacks, 0) as fallbacks
      from s left join r using (client_name, client_version)
      order by s.sessions desc, s.client_name, s.client_version`),
  );
  return rows.map((r) => ({
    name: String(r.client_name),
    version: String(r.client_version),
    sessions: Number(r.sessions),
    formSessions: Number(r.form_sessions),
    urlSessions: Number(r.url_sessions),
    noElicitationSessions: Number(r.none_sessions),
    lastSeen: new Date(r.last_seen as string),
    records: Number(r.records),
    completed: Number(r.completed),
    fallbacks: Number(r.fallbacks),
  }));
}
