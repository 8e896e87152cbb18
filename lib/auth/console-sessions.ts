// Server-side state for browser sessions. The cookie (an encrypted next-auth JWT) only names a row
// here; the row decides whether the session is alive. So a cookie captured before sign-out, or an
// operator whose sessions an admin ended, is refused by every route on the next request.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { consoleSessions } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";

export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;

export async function startConsoleSession(db: Db, subject: string, maxAgeSeconds: number): Promise<string> {
  const id = randomBytes(16).toString("hex");
  await db.insert(consoleSessions).values({ id, subject, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) });
  return id;
}

/** True while the session named by the cookie exists, belongs to `subject`, is not ended and not expired. */
export async function isSessionAlive(db: Db, id: unknown, subject: string): Promise<boolean> {
  if (typeof id !== "string" || !SESSION_ID_PATTERN.test(id)) return false;
  const [row] = await db
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .where(
      and(
        eq(consoleSessions.id, id),
        eq(consoleSessions.subject, subject),
        isNull(consoleSessions.endedAt),
        gt(consoleSessions.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Sign-out: ends this one session (idempotent) and records it. */
export async function endConsoleSession(db: Db, id: unknown, subject: string): Promise<boolean> {
  if (typeof id !== "string" || !SESSION_ID_PATTERN.test(id)) return false;
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(consoleSessions)
      .set({ endedAt: new Date(), endedBy: subject, endReason: "signed_out" })
      .where(and(eq(consoleSessions.id, id), eq(consoleSessions.subject, subject), isNull(consoleSessions.endedAt)))
      .returning({ id: consoleSessions.id });
    if (ended.length === 0) return false;
    await appendAudit(tx, {
      actorType: "subject",
      actorId: subject,
      action: AUDIT_ACTIONS.sessionSignedOut,
      targetType: "session",
      targetId: subject,
      detail: {},
    });
    return true;
  });
}

/** An admin ends every live session of another subject (audited with the count and the reason). */
export async function endSessionsOf(db: Db, admin: string, subject: string, reason: string): Promise<{ ended: number }> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(consoleSessions)
      .set({ endedAt: new Date(), endedBy: admin, endReason: "ended_by_admin" })
      .where(and(eq(consoleSessions.subject, subject), isNull(consoleSessions.endedAt), gt(consoleSessions.expiresAt, new Date())))
      .returning({ id: consoleSessions.id });
    await appendAudit(tx, {
      actorType: "operator",
      actorId: admin,
      action: AUDIT_ACTIONS.operatorSessionsEnded,
      targetType: "operator",
      targetId: subject,
      detail: { sessions: ended.length, reason },
    });
    return { ended: ended.length };
  });
}

/** Live sessions per subject, for the operators page. */
export async function liveSessionCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ subject: consoleSessions.subject, n: sql<number>`count(*)::int` })
    .from(consoleSessions)
    .where(and(isNull(consoleSessions.endedAt), gt(consoleSessions.expiresAt, new Date())))
    .groupBy(consoleSessions.subject);
  return new Map(rows.map((r) => [r.subject, Number(r.n)]));
}
