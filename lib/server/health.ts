// /healthz and /readyz: cheap, unauthenticated, and revealing nothing but check names. Liveness
// says the process answers. Readiness says this instance should get traffic: the database answers
// and takes writes, its migrations are the ones this build ships, the policy LISTEN connection still
// delivers notifications, and the instance is not draining. Results are cached for a moment so a
// probe storm costs one round of checks.
import { sql } from "drizzle-orm";
import { rowsOf, type Store } from "@/db/client";
import { migrationsCurrent } from "@/db/migrate";
import type { CachedPolicy } from "@/lib/policy/policy-source";
import type { Lifecycle } from "./lifecycle";

export type CheckName = "database" | "writable" | "migrations" | "policy_listen" | "not_draining";

export interface Readiness {
  ready: boolean;
  checks: Record<CheckName, boolean>;
}

const CACHE_MS = 1000;

async function writable(store: Store): Promise<boolean> {
  const [row] = rowsOf<{ recovery: boolean; ro: string }>(
    await store.db.execute(sql`select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as ro`),
  );
  return row?.recovery === false && row.ro === "off";
}

export function readinessCheck(deps: { store: Store; policy: CachedPolicy; lifecycle: Lifecycle }): () => Promise<Readiness> {
  let cached: { at: number; value: Promise<Readiness> } | undefined;
  const run = async (): Promise<Readiness> => {
    const safe = (p: Promise<boolean>) => p.catch(() => false);
    const database = await safe(deps.store.db.execute(sql`select 1`).then(() => true));
    const [isWritable, migrations, listen] = database
      ? await Promise.all([safe(writable(deps.store)), safe(migrationsCurrent(deps.store)), safe(deps.policy.probe(1000))])
      : [false, false, false];
    const checks = { database, writable: isWritable, migrations, policy_listen: listen, not_draining: !deps.lifecycle.draining };
    return { ready: Object.values(checks).every(Boolean), checks };
  };
  return async () => {
    if (!cached || Date.now() - cached.at > CACHE_MS) cached = { at: Date.now(), value: run() };
    const r = await cached.value;
    // Draining shows at once, whatever is cached.
    const draining = deps.lifecycle.draining;
    return { ready: r.ready && !draining, checks: { ...r.checks, not_draining: !draining } };
  };
}
