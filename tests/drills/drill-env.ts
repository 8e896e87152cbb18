// What the fault drills need: the production build and, for most drills, PostgreSQL (several
// instances on one database, a server to restart, a database to make read-only). Under CI=true a
// missing PostgreSQL fails the run; elsewhere the PostgreSQL drills are reported as skipped.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { freePort, prepareDeployment, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { requirePostgresInCi } from "../helpers/test-store";

requirePostgresInCi();

export const postgresUrl = process.env.DATABASE_URL || undefined;

/**
 * Restarts the PostgreSQL server behind DATABASE_URL. DRILL_PG_RESTART_CMD overrides the default,
 * which restarts the newest local Debian cluster (what .ci/run starts).
 */
export async function restartPostgres(): Promise<void> {
  // Asynchronous on purpose: the load clients in this process keep running through the restart.
  const run = promisify(execFile);
  const custom = process.env.DRILL_PG_RESTART_CMD;
  if (custom) {
    await run("sh", ["-c", custom]);
    return;
  }
  const versions = fs.readdirSync("/etc/postgresql").sort((a, b) => Number(a) - Number(b));
  const version = versions.at(-1);
  if (!version) throw new Error("no local PostgreSQL cluster found; set DRILL_PG_RESTART_CMD");
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "restart"]);
}

/**
 * One production-build instance on a fresh deployment store for the enclosing describe block
 * (PostgreSQL when DATABASE_URL is set, embedded otherwise), stopped and removed afterwards.
 */
export function useInstance(env: Record<string, string> = {}): () => { dep: Deployment; app: Instance } {
  let dep: Deployment | undefined;
  let app: Instance | undefined;
  beforeAll(async () => {
    const port = await freePort();
    dep = await prepareDeployment(`http://localhost:${port}`, { postgres: postgresUrl });
    app = await startInstance(dep, { port, env });
  });
  afterAll(async () => {
    await app?.stop();
    await dep?.dispose();
  });
  return () => {
    if (!dep || !app) throw new Error("the deployment has not started");
    return { dep, app };
  };
}
