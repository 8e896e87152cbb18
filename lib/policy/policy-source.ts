// Where the engine reads the policy in force: the active kill switches, the client profile of a
// verified client id, and the flow a call belongs to. `directPolicy` reads the store on every call. `cachedPolicy` keeps both in memory and drops
// them when the database says the policy changed (migration 0003 notifies 'policy_changed' on any
// write to kill_switches or flows, and the flows-by-profile migration on client_profiles, from any process), so every instance sees a change within
// milliseconds while a call costs no policy query. Two guards bound staleness if a notification is
// ever missed: the snapshot is reloaded when the LISTEN connection is re-established, and it is
// never older than `maxAgeMs` (one second by default, the kill switch's propagation budget).
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx, Store } from "@/db/client";
import type { Flow, KillSwitch } from "@/db/schema";
import { logger } from "@/lib/log/logger";
import { activeProfileMap, profileForClient } from "./client-profiles";
import { ensureFlow, type InitialFingerprint } from "./flows";
import { activeKillSwitches } from "./kill-switch";
import { flowIdFor, UNREGISTERED_PROFILE } from "./profile-id";

export const POLICY_CHANNEL = "policy_changed";
/** Readiness probes: a notification sent to ourselves through the database. */
const PROBE_CHANNEL = "policy_probe";

export interface PolicySource {
  /** Kill switches in force at `now` (expired ones excluded). */
  killSwitches(now?: Date): Promise<KillSwitch[]>;
  /** The profile of a verified OAuth client id ("unregistered" when it has no active mapping). */
  profileFor(clientId: string): Promise<string>;
  /** The flow for a workflow and profile, created at FLOW_NEW_STAGE on first use. */
  flow(workflow: string, profileId: string, initial: InitialFingerprint): Promise<Flow>;
}

export function directPolicy(db: DbOrTx): PolicySource {
  return {
    killSwitches: (now) => activeKillSwitches(db, now),
    profileFor: (clientId) => profileForClient(db, clientId),
    flow: (workflow, profileId, initial) => ensureFlow(db, workflow, profileId, initial),
  };
}

interface Snapshot {
  switches: KillSwitch[];
  flows: Map<string, Flow>;
  profiles: Map<string, string>;
  loadedAt: number;
}

export interface CachedPolicy extends PolicySource {
  /** Drops the snapshot; the next read reloads it. */
  invalidate(): void;
  /**
   * Proves the change notifications still arrive: notifies a probe channel through the database and
   * waits (up to `timeoutMs`) to hear it on the LISTEN connection. For readiness checks.
   */
  probe(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function cachedPolicy(store: Store, maxAgeMs = 1000): Promise<CachedPolicy> {
  const db = store.db;
  let current: Promise<Snapshot> | undefined;
  let generation = 0;
  const invalidate = () => {
    generation++;
    current = undefined;
  };
  const load = (): Promise<Snapshot> => {
    const seen = generation;
    const loading = (async () => {
      // All active switches, including those with an expiry: expiry is applied at read time.
      const [switches, flows, profiles] = await Promise.all([
        activeKillSwitches(db, new Date(0)),
        db.query.flows.findMany(),
        activeProfileMap(db),
      ]);
      return { switches, flows: new Map(flows.map((f) => [f.id, f])), profiles, loadedAt: Date.now() };
    })();
    current = loading;
    // A change notified while this load ran may not be in it: keep it for this read only.
    loading.then(
      () => void (generation !== seen && current === loading && (current = undefined)),
      () => void (current === loading && (current = undefined)),
    );
    return loading;
  };
  const snapshot = async (): Promise<Snapshot> => {
    const s = await (current ?? load());
    return Date.now() - s.loadedAt > maxAgeMs ? load() : s;
  };

  // Probes: each carries a random token; a waiter resolves when its token comes back.
  const waiting = new Map<string, () => void>();
  const heard = (payload: string) => waiting.get(payload)?.();
  let unsubscribe: () => Promise<void>;
  if (store.sql) {
    // onlisten runs on every (re)connection of the LISTEN connection: anything missed meanwhile is reloaded.
    const sub = await store.sql.listen(POLICY_CHANNEL, invalidate, invalidate);
    const probeSub = await store.sql.listen(PROBE_CHANNEL, heard);
    unsubscribe = async () => {
      await sub.unlisten();
      await probeSub.unlisten();
    };
  } else if (store.pglite) {
    const off = await store.pglite.listen(POLICY_CHANNEL, invalidate);
    const offProbe = await store.pglite.listen(PROBE_CHANNEL, heard);
    unsubscribe = async () => {
      await off();
      await offProbe();
    };
  } else {
    throw new Error("this store cannot notify policy changes");
  }
  const probe = async (timeoutMs = 1000): Promise<boolean> => {
    const token = randomBytes(8).toString("hex");
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      waiting.set(token, () => (clearTimeout(timer), resolve(true)));
    });
    try {
      await db.execute(sql`select pg_notify(${PROBE_CHANNEL}, ${token})`);
      return await arrived;
    } catch {
      return false;
    } finally {
      waiting.delete(token);
    }
  };
  logger.debug({ event: "policy.cache_ready", maxAgeMs }, "policy cache subscribed");

  return {
    invalidate,
    probe,
    killSwitches: async (now = new Date()) =>
      (await snapshot()).switches.filter((s) => !s.expiresAt || s.expiresAt.getTime() > now.getTime()),
    profileFor: async (clientId) => (await snapshot()).profiles.get(clientId) ?? UNREGISTERED_PROFILE,
    flow: async (workflow, profileId, initial) => {
      const known = (await snapshot()).flows.get(flowIdFor(workflow, profileId));
      if (known) return known;
      const created = await ensureFlow(db, workflow, profileId, initial);
      invalidate(); // the insert notifies too; this makes the next read see it even before that arrives
      return created;
    },
    close: async () => {
      invalidate();
      await unsubscribe().catch((err: unknown) =>
        logger.warn(
          { event: "policy.unlisten_failed", error: err instanceof Error ? err.name : "error" },
          "policy cache unsubscribe failed",
        ),
      );
    },
  };
}
