// "Pause a flow for N minutes" (releasers and admins, who hold flow.rollback): the flow's own kill
// switch (`flow:WORKFLOW:PROFILE`) engaged with an expiry. While paused the flow is refused exactly
// as if its switch were engaged (new elicitations get "kill switch flow:... is engaged: paused ...";
// unfinished ones are revoked with it), and it releases itself when the time is up: every reader
// of the switches ignores one past its expiry. A pause never shortens or ends a stop: over a switch
// that is engaged with no end, or ends later, it is refused, atomically (ON CONFLICT ... WHERE).
// One declaration: the console form on the flows page and `ctl flows pause` come from it
// (lib/controls/registry.ts).
import { and, eq, isNotNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { flows, killSwitchEvents, killSwitches } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { PERMISSIONS } from "@/lib/auth/permissions";
import type { OperatorControl } from "@/lib/controls/control";
import { revokeRecordsTx } from "@/lib/elicitation/revoke";
import { FLOW_ID_PATTERN } from "./flow-actions";
import { killSwitchReason, killSwitchScope } from "./kill-switch";

// The kill switch's own longest expiry: a week.
export const MAX_PAUSE_MINUTES = 7 * 24 * 60;

// A form and the command line send text: "15" is fifteen, "1.5", "1e3", "" or "ten" are refused.
const wholeMinutes = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: "minutes must be a number" })
    .int("minutes must be a whole number")
    .min(1, "pause for at least one minute")
    .max(MAX_PAUSE_MINUTES, `pause for at most ${MAX_PAUSE_MINUTES} minutes (a week)`),
);

// Strict: an unknown key (`__proto__`, `constructor`, a typo) is refused, not ignored.
export const pauseFlowInput = z.strictObject({
  flowId: z
    .string()
    .regex(FLOW_ID_PATTERN, "a flow id is workflow:profile")
    .refine((id) => killSwitchScope.safeParse(`flow:${id}`).success, "a flow id is workflow:profile"),
  minutes: wholeMinutes,
  reason: killSwitchReason,
});

export class FlowPauseError extends Error {
  override name = "FlowPauseError";
}

export interface FlowPaused {
  flowId: string;
  pausedUntil: string;
  revoked: number;
  message: string;
}

export async function pauseFlow(db: Db, actor: string, input: z.infer<typeof pauseFlowInput>): Promise<FlowPaused> {
  const [flow] = await db.select({ id: flows.id }).from(flows).where(eq(flows.id, input.flowId)).limit(1);
  if (!flow) throw new FlowPauseError(`no flow is called "${input.flowId}": check the id (ctl flows list)`);
  const scope = `flow:${flow.id}`;
  const now = new Date();
  const until = new Date(now.getTime() + input.minutes * 60_000);
  const reason = `paused for ${input.minutes} min: ${input.reason}`;
  return db.transaction(async (tx) => {
    const values = {
      scope,
      active: true,
      reason,
      changedBy: actor,
      changedAt: now,
      expiresAt: until,
      releaseRequestedBy: null,
      releaseRequestedAt: null,
    };
    const [row] = await tx
      .insert(killSwitches)
      .values(values)
      .onConflictDoUpdate({
        target: killSwitches.scope,
        set: values,
        setWhere: or(eq(killSwitches.active, false), and(isNotNull(killSwitches.expiresAt), lte(killSwitches.expiresAt, until))),
      })
      .returning();
    if (!row) throw new FlowPauseError(`flow ${flow.id} is already stopped by its kill switch for longer than that; nothing changed`);
    await tx.insert(killSwitchEvents).values({ scope, active: true, reason, actor, expiresAt: until });
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.killSwitchOn,
      targetType: "kill_switch",
      targetId: scope,
      detail: { reason, expires_at: until.toISOString(), paused_minutes: input.minutes },
    });
    const revoked = await revokeRecordsTx(
      tx,
      { type: "operator", id: actor },
      { pending: { flowId: flow.id } },
      `kill switch ${scope}: ${reason}`,
    );
    const at = until.toISOString().slice(0, 16).replace("T", " ");
    return {
      flowId: flow.id,
      pausedUntil: until.toISOString(),
      revoked: revoked.length,
      message: `paused until ${at} UTC; ${revoked.length} unfinished handle(s) revoked`,
    };
  });
}

export const pauseFlowControl: OperatorControl<typeof pauseFlowInput, FlowPaused> = {
  name: "pause-flow",
  permission: PERMISSIONS.flowRollback,
  schema: pauseFlowInput,
  target: (input) => ({ type: "flow", id: input.flowId }),
  audit: [AUDIT_ACTIONS.killSwitchOn, AUDIT_ACTIONS.recordRevoked],
  expected: [FlowPauseError],
  revalidate: ["/console/flows"],
  run: ({ db, operator, input }) => pauseFlow(db, operator.subject, input),
  cli: {
    command: ["flows", "pause"],
    summary: "stop one flow for N minutes; it resumes by itself (releasers and admins)",
    positional: { field: "flowId", name: "FLOW" },
    flags: { minutes: { field: "minutes", value: "N" }, reason: { field: "reason", value: "TEXT" } },
    human: (r) => `${r.flowId} ${r.message}`,
  },
  form: {
    page: "flows",
    rowField: "flowId",
    title: "Pause",
    submit: "Pause",
    fields: [
      { name: "minutes", label: "Minutes", kind: "number", min: 1, max: MAX_PAUSE_MINUTES },
      { name: "reason", label: "Reason", kind: "text", minLength: 3, maxLength: 200 },
    ],
  },
};
