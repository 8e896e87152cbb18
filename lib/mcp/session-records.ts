// Persists what initialize told us about an MCP session: the capability manifest exactly as sent,
// the negotiated protocol version, the client's name and version, and whose session it is. Also
// the per-subject cap on open sessions, counted in the store so it holds across instances.
import { CLIENT_NAME_MAX, CLIENT_VERSION_MAX, observedText } from "@/lib/http/observed-text";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import { mcpSessions } from "@/db/schema";
import { declaredModes } from "@/lib/elicitation/capabilities";

export interface SessionFacts {
  id: string;
  subject: string;
  tenantId: string;
  clientName: string;
  clientVersion: string;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  instanceId: string;
}

export interface SessionCap {
  maxPerSubject: number;
  idleMs: number;
}

export type Admission = { ok: true } | { ok: false; open: number; retryAfterSeconds: number };

/**
 * Records the session only if its subject (in its tenant) holds fewer than `maxPerSubject` open
 * sessions. A session counts while it is not closed and was seen within the idle time (a session
 * left open by a crashed instance stops counting once it would have been evicted). The check and
 * the insert run under a per-subject advisory lock, so concurrent initializes on any instance
 * cannot overshoot the cap. Refused: how many are open and when the oldest one goes idle.
 */
export async function admitSession(db: Db, facts: SessionFacts, cap: SessionCap): Promise<Admission> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mcp-session-cap:${facts.tenantId}:${facts.subject}`}, 0))`);
    const [row] = rowsOf<{ open: number; oldest_ms: number | null }>(
      await tx.execute(sql`
        select count(*)::int as open,
               (extract(epoch from (min(last_seen_at) + ${cap.idleMs} * interval '1 millisecond' - now())) * 1000)::float8 as oldest_ms
        from mcp_sessions
        where subject = ${facts.subject} and tenant_id = ${facts.tenantId} and closed_at is null
          and last_seen_at > now() - ${cap.idleMs} * interval '1 millisecond'`),
    );
    const open = row?.open ?? 0;
    if (open >= cap.maxPerSubject)
      return { ok: false as const, open, retryAfterSeconds: Math.max(1, Math.ceil((row?.oldest_ms ?? 1000) / 1000)) };
    const modes = declaredModes(facts.capabilities);
    // Self-declared: bounded before it is stored (lib/http/observed-text.ts).
    const client = {
      clientName: observedText(facts.clientName, CLIENT_NAME_MAX),
      clientVersion: observedText(facts.clientVersion, CLIENT_VERSION_MAX),
    };
    await tx.insert(mcpSessions).values({ ...facts, ...client, formDeclared: modes.form, urlDeclared: modes.url });
    return { ok: true as const };
  });
}

/** An initialize the transport refused after admission leaves no trace. */
export async function forgetSession(db: Db, id: string): Promise<void> {
  await db.delete(mcpSessions).where(eq(mcpSessions.id, id));
}

export async function closeSession(db: Db, id: string): Promise<void> {
  await db
    .update(mcpSessions)
    .set({ closedAt: new Date() })
    .where(and(eq(mcpSessions.id, id), isNull(mcpSessions.closedAt)));
}

/** Marks sessions as still in use (throttled by the caller: not on every request). */
export async function touchSessions(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update mcp_sessions set last_seen_at = now() where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) and closed_at is null`,
  );
}

/** Closes sessions of any instance not seen within the idle time (an instance that died leaves them open). */
export async function closeIdleSessions(db: Db, idleMs: number): Promise<number> {
  const closed = await db
    .update(mcpSessions)
    .set({ closedAt: sql`now()` })
    .where(and(isNull(mcpSessions.closedAt), lt(mcpSessions.lastSeenAt, sql`now() - ${idleMs} * interval '1 millisecond'`)))
    .returning({ id: mcpSessions.id });
  return closed.length;
}

export async function getSession(db: Db, id: string) {
  const [row] = await db.select().from(mcpSessions).where(eq(mcpSessions.id, id)).limit(1);
  return row;
}
