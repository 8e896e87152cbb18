// Client profiles: the admin-defined mapping from verified OAuth client ids (the access token's
// client_id or azp) to the profile a flow is keyed on. A client id with no active mapping belongs
// to the one profile "unregistered" (dynamically registered clients, unknown software): whatever a
// client registers or calls itself, it never gets a flow of its own. Each change is one
// transaction with its audit entry; the policy cache is told by the table's trigger.
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { clientProfiles, type ClientProfile } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { oauthClientIdSchema, profileDisplayNameSchema, profileIdSchema, UNREGISTERED_PROFILE } from "./profile-id";

export class ClientProfileError extends Error {
  override name = "ClientProfileError";
}

export const setClientProfileInput = z.object({
  clientId: oauthClientIdSchema,
  profileId: profileIdSchema.refine(
    (p) => p !== UNREGISTERED_PROFILE,
    `"${UNREGISTERED_PROFILE}" is where unmapped clients go; it cannot be assigned`,
  ),
  displayName: profileDisplayNameSchema,
});

export const removeClientProfileInput = z.object({ clientId: oauthClientIdSchema });

/** Every mapping, active first, for the console and `ctl client-profiles list`. */
export async function listClientProfiles(db: DbOrTx): Promise<ClientProfile[]> {
  return db
    .select()
    .from(clientProfiles)
    .orderBy(asc(clientProfiles.disabledAt), asc(clientProfiles.profileId), asc(clientProfiles.clientId));
}

/** Active mappings only: client id -> profile id. */
export async function activeProfileMap(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await db
    .select({ clientId: clientProfiles.clientId, profileId: clientProfiles.profileId })
    .from(clientProfiles)
    .where(isNull(clientProfiles.disabledAt));
  return new Map(rows.map((r) => [r.clientId, r.profileId]));
}

/** The profile of a verified client id; "unregistered" when it has no active mapping. */
export async function profileForClient(db: DbOrTx, clientId: string): Promise<string> {
  if (!clientId) return UNREGISTERED_PROFILE;
  const [row] = await db
    .select({ profileId: clientProfiles.profileId })
    .from(clientProfiles)
    .where(and(eq(clientProfiles.clientId, clientId), isNull(clientProfiles.disabledAt)))
    .limit(1);
  return row?.profileId ?? UNREGISTERED_PROFILE;
}

export async function setClientProfile(db: Db, actor: string, raw: z.input<typeof setClientProfileInput>): Promise<ClientProfile> {
  const input = setClientProfileInput.parse(raw);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(clientProfiles).where(eq(clientProfiles.clientId, input.clientId)).for("update");
    const [row] = await tx
      .insert(clientProfiles)
      .values({ clientId: input.clientId, profileId: input.profileId, displayName: input.displayName, createdBy: actor })
      .onConflictDoUpdate({
        target: clientProfiles.clientId,
        set: { profileId: input.profileId, displayName: input.displayName, disabledAt: null },
      })
      .returning();
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.clientProfileSet,
      targetType: "client_profile",
      targetId: input.clientId,
      detail: { profile: input.profileId, previous_profile: before && !before.disabledAt ? before.profileId : null },
    });
    return row!;
  });
}

export async function removeClientProfile(db: Db, actor: string, raw: z.input<typeof removeClientProfileInput>): Promise<ClientProfile> {
  const { clientId } = removeClientProfileInput.parse(raw);
  return db.transaction(async (tx) => {
    // Kept as a disabled row (who made it, when it ended); the client falls back to "unregistered".
    const [row] = await tx
      .update(clientProfiles)
      .set({ disabledAt: new Date() })
      .where(and(eq(clientProfiles.clientId, clientId), isNull(clientProfiles.disabledAt)))
      .returning();
    if (!row) throw new ClientProfileError(`client id ${clientId} has no active profile`);
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.clientProfileRemoved,
      targetType: "client_profile",
      targetId: clientId,
      detail: { profile: row.profileId },
    });
    return row;
  });
}
