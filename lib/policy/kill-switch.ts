// The kill switch: global, per mode, per flow (`flow:workflow:profile`), and per workflow across
// every client profile (`workflow:NAME`). Engaging it takes one operator with a reason;
// releasing it takes two different people (the first asks, a second confirms). Each change is one
// transaction with its history row and its audit entry. An optional expiry releases it by itself.
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { killSwitchEvents, killSwitches, type KillSwitch } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { scopeNamesNothing } from "./kill-switch-target";
import { revokeRecordsTx } from "@/lib/elicitation/revoke";

// Flow ids are `workflow:profile` (lib/policy/profile-id.ts), so every flow fits `flow:`.
export const killSwitchScope = z
  .string()
  .regex(
    /^(global|mode:(form|url)|flow:[a-z][a-z0-9_]{0,62}:[a-z0-9][a-z0-9-]{0,62}|workflow:[a-z][a-z0-9_]{0,62}|upstream:[a-z][a-z0-9]{1,23})$/,
    "scope must be global, mode:form, mode:url, flow:WORKFLOW:PROFILE, workflow:NAME or upstream:ID",
  );
export const killSwitchReason = z
  .string()
  .trim()
  .min(3, "a reason is required")
  .max(200, "keep the reason under 200 characters")
  .refine(hasNoControlCharacters, NO_CONTROL_MESSAGE);

export class KillSwitchError extends Error {
  override name = "KillSwitchError";
}

export interface Actor {
  type: "operator" | "system";
  id: string;
}

/** Switches in force now (engaged and not past their expiry). */
export async function activeKillSwitches(db: DbOrTx, now = new Date()): Promise<KillSwitch[]> {
  return db
    .select()
    .from(killSwitches)
    .where(and(eq(killSwitches.active, true), or(isNull(killSwitches.expiresAt), gt(killSwitches.expiresAt, now))));
}

export async function engageKillSwitch(
  db: Db,
  actor: Actor,
  input: { scope: string; reason: string; expiresAt?: Date },
): Promise<KillSwitch> {
  const scope = killSwitchScope.parse(input.scope);
  // A well-formed scope must also name something that exists: a typo would otherwise be shown as
  // engaged while stopping nothing. Checked here, so every caller (console, API, CLI) gets it.
  const nothing = await scopeNamesNothing(db, scope);
  if (nothing) throw new KillSwitchError(`kill switch ${scope} not engaged: ${nothing}`);
  const reason = killSwitchReason.parse(input.reason);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new KillSwitchError("expiry must be in the future");
  return db.transaction(async (tx) => {
    const values = {
      scope,
      active: true,
      reason,
      changedBy: actor.id,
      changedAt: new Date(),
      expiresAt: input.expiresAt ?? null,
      releaseRequestedBy: null,
      releaseRequestedAt: null,
    };
    const [row] = await tx.insert(killSwitches).values(values).onConflictDoUpdate({ target: killSwitches.scope, set: values }).returning();
    await tx.insert(killSwitchEvents).values({ scope, active: true, reason, actor: actor.id, expiresAt: input.expiresAt ?? null });
    await appendAudit(tx, {
      actorType: actor.type,
      actorId: actor.id,
      action: AUDIT_ACTIONS.killSwitchOn,
      targetType: "kill_switch",
      targetId: scope,
      detail: { reason, expires_at: input.expiresAt?.toISOString() ?? null },
    });
    // Unfinished records in scope are revoked with it, URL handles and form requests alike: an
    // open connect link must not outlive the decision to stop, and a form answered after it must
    // not be used (the engine also re-reads the policy when an answer arrives).
    const target = scope.startsWith("flow:")
      ? { flowId: scope.slice(5) }
      : scope.startsWith("workflow:")
        ? { workflow: scope.slice(9) }
        : scope.startsWith("upstream:")
          ? { upstreamId: scope.slice(9) }
          : scope.startsWith("mode:")
            ? { mode: scope.slice(5) as "form" | "url" }
            : {};
    await revokeRecordsTx(tx, actor, { pending: target }, `kill switch ${scope}: ${reason}`);
    return row!;
  });
}

export type ReleaseOutcome = { state: "release_requested"; scope: string } | { state: "released"; scope: string };

export async function releaseKillSwitch(db: Db, actor: Actor, input: { scope: string; reason: string }): Promise<ReleaseOutcome> {
  const scope = killSwitchScope.parse(input.scope);
  const reason = killSwitchReason.parse(input.reason);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(killSwitches).where(eq(killSwitches.scope, scope)).for("update");
    if (!row || !row.active) throw new KillSwitchError(`kill switch ${scope} is not engaged`);
    if (!row.releaseRequestedBy) {
      await tx
        .update(killSwitches)
        .set({ releaseRequestedBy: actor.id, releaseRequestedAt: new Date() })
        .where(eq(killSwitches.scope, scope));
      await appendAudit(tx, {
        actorType: actor.type,
        actorId: actor.id,
        action: AUDIT_ACTIONS.killSwitchReleaseRequested,
        targetType: "kill_switch",
        targetId: scope,
        detail: { reason },
      });
      return { state: "release_requested", scope };
    }
    if (row.releaseRequestedBy === actor.id) throw new KillSwitchError("releasing a kill switch needs a second person to confirm");
    await tx
      .update(killSwitches)
      .set({ active: false, reason, changedBy: actor.id, changedAt: new Date(), releaseRequestedBy: null, releaseRequestedAt: null })
      .where(eq(killSwitches.scope, scope));
    await tx.insert(killSwitchEvents).values({ scope, active: false, reason, actor: actor.id });
    await appendAudit(tx, {
      actorType: actor.type,
      actorId: actor.id,
      action: AUDIT_ACTIONS.killSwitchOff,
      targetType: "kill_switch",
      targetId: scope,
      detail: { reason, requested_by: row.releaseRequestedBy },
    });
    return { state: "released", scope };
  });
}
