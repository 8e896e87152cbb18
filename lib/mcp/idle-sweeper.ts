// Idle eviction of MCP sessions. A session with no request in flight and none for `idleMs` is
// closed (transport and server closed, row closed_at set, memory released). The same sweep marks
// this instance's busy sessions as seen in the store (so the per-subject cap, which counts
// sessions seen within the idle time, agrees across instances) and closes rows that an instance
// which died left open. Runs off the request path, every quarter of the idle time (30 s at most).
import type { Db } from "@/db/client";
import { logger } from "@/lib/log/logger";
import { closeIdleSessions, touchSessions } from "./session-records";

export interface SweptSession {
  /** ms since epoch of the last request start or end. */
  lastActivity: number;
  /** Requests (POSTs) being handled now; a session waiting on a person is not idle. */
  inFlight: number;
  /** The last activity already written to the store. */
  persistedActivity: number;
}

export interface IdleSweeperOptions<S extends SweptSession> {
  db: () => Promise<Db>;
  idleMs: number;
  sessions: Map<string, S>;
  evict: (id: string, session: S) => Promise<void>;
}

export function sweepInterval(idleMs: number): number {
  return Math.max(50, Math.min(30_000, Math.floor(idleMs / 4)));
}

export async function sweepIdleSessions<S extends SweptSession>(
  options: IdleSweeperOptions<S>,
  now = Date.now(),
): Promise<{ evicted: number }> {
  const stale: Array<[string, S]> = [];
  const seen: string[] = [];
  for (const [id, s] of options.sessions) {
    if (s.inFlight === 0 && now - s.lastActivity >= options.idleMs) stale.push([id, s]);
    else if (s.inFlight > 0 || s.lastActivity > s.persistedActivity) {
      seen.push(id);
      s.persistedActivity = s.inFlight > 0 ? now : s.lastActivity;
    }
  }
  for (const [id, s] of stale) await options.evict(id, s);
  const db = await options.db();
  await touchSessions(db, seen);
  const orphaned = await closeIdleSessions(db, options.idleMs);
  if (stale.length || orphaned) logger.info({ event: "mcp.sessions_evicted", evicted: stale.length, orphaned }, "idle MCP sessions closed");
  return { evicted: stale.length };
}

/** Starts the sweep timer; returns its stop function. */
export function startIdleSweeper<S extends SweptSession>(options: IdleSweeperOptions<S>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepIdleSessions(options)
      .catch((err: unknown) =>
        logger.warn(
          { event: "mcp.sweep_failed", error: err instanceof Error ? err.name : "error" },
          "idle session sweep failed; will retry",
        ),
      )
      .finally(() => (running = false));
  }, sweepInterval(options.idleMs));
  timer.unref();
  return () => clearInterval(timer);
}
