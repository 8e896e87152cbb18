// At sign-in the issuer's roles claim is copied onto the operator row (created when the subject
// first signs in with an operator role). A subject whose roles were all removed at the issuer loses
// console access at once, because every request re-reads this row.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { operators } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import type { Role } from "./permissions";

export async function syncOperatorAtSignIn(db: Db, input: { subject: string; displayName: string; roles: Role[] }): Promise<void> {
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(operators).where(eq(operators.subject, input.subject)).for("update");
    if (!existing && input.roles.length === 0) return; // an end user, not an operator
    if (existing) {
      await tx
        .update(operators)
        .set({ roles: input.roles, displayName: input.displayName, lastSeenAt: new Date() })
        .where(eq(operators.subject, input.subject));
    } else {
      await tx
        .insert(operators)
        .values({ subject: input.subject, displayName: input.displayName, roles: input.roles, lastSeenAt: new Date() });
    }
    await appendAudit(tx, {
      actorType: "operator",
      actorId: input.subject,
      action: AUDIT_ACTIONS.operatorSignedIn,
      targetType: "console",
      targetId: "session",
      detail: { roles: input.roles },
    });
  });
}
