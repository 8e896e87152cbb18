// Recovery needs the test user without a grant, so that the URL flow really runs. With the
// target's store the gate ends that user's active connection to the flow's provider, audited as
// the releaser's gate run; without it, a user who is already connected means the check cannot run.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { downstreamConnections, elicitationRecords } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { revokeRecords } from "@/lib/elicitation/revoke";

export async function resetTestConnection(
  db: Db,
  actor: string,
  q: { subject: string; tenantId: string; providerId: string; flowId: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(downstreamConnections)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(
        and(
          eq(downstreamConnections.subject, q.subject),
          eq(downstreamConnections.tenantId, q.tenantId),
          eq(downstreamConnections.providerId, q.providerId),
          eq(downstreamConnections.status, "active"),
        ),
      )
      .returning({ id: downstreamConnections.id });
    if (ended.length)
      await appendAudit(tx, {
        actorType: "operator",
        actorId: actor,
        action: AUDIT_ACTIONS.gateConnectionReset,
        targetType: "flow",
        targetId: q.flowId,
        detail: { subject: q.subject, provider: q.providerId, connections: ended.length },
      });
    return ended.length;
  });
}

export async function activeConnections(db: Db, q: { subject: string; tenantId: string; providerId: string }): Promise<number> {
  const rows = await db
    .select({ id: downstreamConnections.id })
    .from(downstreamConnections)
    .where(
      and(
        eq(downstreamConnections.subject, q.subject),
        eq(downstreamConnections.tenantId, q.tenantId),
        eq(downstreamConnections.providerId, q.providerId),
        eq(downstreamConnections.status, "active"),
      ),
    );
  return rows.length;
}

/**
 * The test user's unfinished records of this flow, revoked (audited as the releaser's): a link a
 * gate opened and left is ended, and, being the user's latest record, starts no cool-down.
 */
export async function revokeTestRecords(db: Db, actor: string, q: { subject: string; tenantId: string; flowId: string }): Promise<number> {
  const open = await db
    .select({ id: elicitationRecords.id })
    .from(elicitationRecords)
    .where(
      and(
        eq(elicitationRecords.subject, q.subject),
        eq(elicitationRecords.tenantId, q.tenantId),
        eq(elicitationRecords.flowId, q.flowId),
        inArray(elicitationRecords.state, ["created", "sent", "accepted", "opened"]),
      ),
    );
  if (open.length === 0) return 0;
  return (
    await revokeRecords(
      db,
      { type: "operator", id: actor },
      { ids: open.map((r) => r.id) },
      "gate run: the test user's unfinished links are ended",
    )
  ).length;
}

/** Before a browser check: no grant and no open link for the test user in this flow. */
export async function cleanSlate(
  db: Db,
  actor: string,
  q: { subject: string; tenantId: string; providerId: string; flowId: string },
): Promise<void> {
  await revokeTestRecords(db, actor, q);
  await resetTestConnection(db, actor, q);
}
