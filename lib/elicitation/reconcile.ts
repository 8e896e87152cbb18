// Reconciliation of records whose outcome can no longer arrive. A form request is answered (or
// times out) inside the tools/call that sent it; if the instance handling it stopped (crash,
// deploy, kill), the record would stay `sent` for ever. Any instance may close such records once
// the form timeout plus a grace period has passed: by then the original call has ended on every
// instance, so nothing in flight is touched. URL-mode handles past their expiry become `expired`.
// Each statement updates and writes the matching events together, guarded by the state it leaves.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { flushCoalescedAudit } from "@/lib/abuse/audit-coalesce";
import { abuseConfig } from "@/lib/abuse/config";
import { logger } from "@/lib/log/logger";
import type { EngineConfig } from "./config";
import { countElicitationFinished } from "@/lib/metrics/elicitation-counters";
import { MODERN_PROTOCOL_VERSION } from "./wire";
import { movableFrom, type MoveTarget } from "./record-states";

/** Extra time after the form timeout before a record counts as abandoned. */
export const RECONCILE_GRACE_MS = 60_000;

/**
 * Why a form record nobody answered was closed. A 2025-11-25 record is answered inside the call
 * that sent it, so one still open past the timeout means that call's instance stopped. A
 * 2026-07-28 call ends at once with a sealed requestState that expires with the form timeout; a
 * client that never retries sends no signal, so its record ends here as timed_out ("nobody answered
 * in time", as in the other era), never as a disconnect.
 */
const FORM_TIMED_OUT_REASON = sql`case when moved.protocol_version = ${MODERN_PROTOCOL_VERSION}
  then 'the request state expired and no retry arrived'
  else 'no outcome was recorded before the timeout: the instance handling the request stopped' end`;

export interface ReconcileResult {
  timedOut: number;
  expired: number;
}

/** The states a move leaves, as SQL: the reconciler's guards come from the state machine. */
const statesIn = (move: "reconcileForm" | "endLink"): SQL =>
  sql.join(
    movableFrom(move).map((s) => sql`${s}::elicitation_state`),
    sql`, `,
  );

/**
 * Moves every record that matches `stale` to `to` and writes its event (with the state it really
 * left), in one statement; rows another instance is already moving are skipped, not waited for.
 */
async function closeWhere(
  db: Db,
  stale: SQL,
  to: MoveTarget<"reconcileForm"> | Extract<MoveTarget<"endLink">, "expired">,
  reason: string | SQL,
  at: string,
): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      with stale as (
        select id, state, protocol_version from elicitation_records where ${stale} for update skip locked
      ), moved as (
        update elicitation_records r set state = ${to}::elicitation_state, finished_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
        from stale where r.id = stale.id returning r.id, stale.state as from_state, stale.protocol_version
      ), ev as (
        insert into elicitation_events (record_id, from_state, to_state, at, actor_type, actor_id, reason, detail)
        select id, from_state, ${to}::elicitation_state, ${at}::timestamptz, 'system', 'reconciler', ${reason}, '{}'::jsonb from moved
        returning 1
      )
      select count(*)::int as n from ev`),
  );
  return row?.n ?? 0;
}

export async function reconcileStaleRecords(
  db: Db,
  config: Pick<EngineConfig, "formTimeoutMs">,
  now = new Date(),
): Promise<ReconcileResult> {
  const formCutoff = new Date(now.getTime() - config.formTimeoutMs - RECONCILE_GRACE_MS).toISOString();
  const at = now.toISOString();
  const result = {
    timedOut: await closeWhere(
      db,
      sql`mode = 'form' and state in (${statesIn("reconcileForm")}) and sent_at < ${formCutoff}::timestamptz`,
      "timed_out",
      FORM_TIMED_OUT_REASON,
      at,
    ),
    expired: await closeWhere(
      db,
      sql`mode = 'url' and state in (${statesIn("endLink")}) and expires_at < ${at}::timestamptz`,
      "expired",
      "link expired unused",
      at,
    ),
  };
  countElicitationFinished("form", "timed_out", result.timedOut);
  countElicitationFinished("url", "expired", result.expired);
  if (result.timedOut || result.expired) logger.info({ event: "records.reconciled", ...result }, "stale records closed");
  return result;
}

/** Runs the reconciler now and then every `everyMs`; failures (a store outage) are logged and retried. */
export function startReconciler(db: Db, config: Pick<EngineConfig, "formTimeoutMs">, everyMs = 30_000): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    reconcileStaleRecords(db, config)
      // Counts of repeated denied views whose window has ended go to the audit log.
      .then(() => flushCoalescedAudit(db, abuseConfig().auditCoalesceWindowMs))
      .catch((err: unknown) =>
        logger.warn(
          { event: "records.reconcile_failed", error: err instanceof Error ? err.name : "error" },
          "reconciliation failed; will retry",
        ),
      )
      .finally(() => (running = false));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
