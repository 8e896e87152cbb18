// The URL-mode tests reuse the demo's end users (the downstream provider knows only them), so each
// case starts by removing what an earlier case left: the vault's secrets, the person's downstream
// connection, and their unfinished URL records (expired, so no pending link is offered again).
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { downstreamConnections, elicitationRecords, vaultSecrets } from "@/db/schema";

export async function forgetConnection(db: Db, subject: string): Promise<void> {
  await db.delete(vaultSecrets);
  await db.delete(downstreamConnections).where(eq(downstreamConnections.subject, subject));
  await db
    .update(elicitationRecords)
    .set({ state: "expired" })
    .where(and(eq(elicitationRecords.subject, subject), eq(elicitationRecords.mode, "url")));
}

/** How many downstream connections (grants) the person holds. */
export async function grantCount(db: Db, subject: string): Promise<number> {
  return (await db.select().from(downstreamConnections).where(eq(downstreamConnections.subject, subject))).length;
}
