// Downstream connections: one per subject, tenant and provider, with the credential in the vault.
// The token is opened only here, server-side, to call the provider; it never leaves the server.
import { and, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { downstreamConnections, vaultSecrets } from "@/db/schema";
import { open, seal, vaultKey, type Binding } from "@/lib/vault/vault";

export interface StoredTokens {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
  scope?: string;
}

export async function activeConnection(db: DbOrTx, q: { subject: string; tenantId: string; providerId: string }) {
  const [row] = await db
    .select()
    .from(downstreamConnections)
    .where(
      and(
        eq(downstreamConnections.subject, q.subject),
        eq(downstreamConnections.tenantId, q.tenantId),
        eq(downstreamConnections.providerId, q.providerId),
        eq(downstreamConnections.status, "active"),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Stores a new grant, unless the owner already has an active connection to this provider:
 * then nothing is stored and the existing connection is returned (no second grant).
 */
export async function storeConnection(
  tx: Tx,
  binding: Binding,
  tokens: StoredTokens,
  recordId: string,
): Promise<{ id: number; created: boolean }> {
  const [existing] = await tx
    .select()
    .from(downstreamConnections)
    .where(
      and(
        eq(downstreamConnections.subject, binding.subject),
        eq(downstreamConnections.tenantId, binding.tenantId),
        eq(downstreamConnections.providerId, binding.providerId),
      ),
    )
    .for("update");
  if (existing?.status === "active") return { id: existing.id, created: false };
  const sealed = seal(vaultKey(), binding, JSON.stringify(tokens));
  let id: number;
  if (existing) {
    await tx
      .update(downstreamConnections)
      .set({ status: "active", scope: binding.scope, recordId, createdAt: new Date(), revokedAt: null })
      .where(eq(downstreamConnections.id, existing.id));
    await tx.delete(vaultSecrets).where(eq(vaultSecrets.connectionId, existing.id));
    id = existing.id;
  } else {
    const [row] = await tx
      .insert(downstreamConnections)
      .values({ subject: binding.subject, tenantId: binding.tenantId, providerId: binding.providerId, scope: binding.scope, recordId })
      .returning();
    id = row!.id;
  }
  await tx.insert(vaultSecrets).values({ connectionId: id, ...sealed });
  return { id, created: true };
}

export async function connectionTokens(
  db: DbOrTx,
  connection: { id: number; subject: string; tenantId: string; providerId: string; scope: string },
): Promise<StoredTokens> {
  const [secret] = await db.select().from(vaultSecrets).where(eq(vaultSecrets.connectionId, connection.id)).limit(1);
  if (!secret) throw new Error(`connection ${connection.id} has no vaulted credential`);
  return JSON.parse(
    open(
      vaultKey(),
      { subject: connection.subject, tenantId: connection.tenantId, providerId: connection.providerId, scope: connection.scope },
      secret,
    ),
  ) as StoredTokens;
}
