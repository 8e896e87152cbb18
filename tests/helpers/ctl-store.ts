// The setup the `ctl` integration tests share: a store of the suite's kind (a fresh PostgreSQL
// database next to DATABASE_URL, else an embedded store in a temporary directory) migrated and
// seeded by the real CLI, the environment that points ctl at it, and ctl run as a signed-in
// operator. One call at the top level of a test file registers the hooks that build and remove it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { openStore, type Db } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { runCli as runCliRaw, type CliResult } from "./cli";
import { writeOperatorSession } from "./operator-session";
import { createPostgresDatabase, requirePostgresInCi } from "./test-store";

type Env = Record<string, string | undefined>;

export interface CtlStoreOptions {
  /** Prefix of the temporary directory (the embedded store, session files, input files). */
  tmpPrefix: string;
  /** Settings added to the store's environment for every run. */
  env?: Record<string, string>;
}

export interface CtlStore {
  /** The temporary directory: there from the start, removed after the file's tests. */
  readonly tmp: string;
  /** DATABASE_URL and DATA_DIR for the store, plus the options' settings (inside tests and hooks). */
  readonly env: Env;
  /**
   * Runs ctl as the operator its `--as` names, signed in the way `ctl login` leaves it (a fresh ID
   * token from the bundled provider in that operator's own session file); without `--as`, signed out.
   */
  runCli(args: string[], e: Env): Promise<CliResult>;
  /** Opens the store only between CLI runs (the embedded store allows one process at a time). */
  inStore<T>(fn: (db: Db) => Promise<T>): Promise<T>;
}

export function useCtlStore(options: CtlStoreOptions): CtlStore {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
  let env: Env | undefined;
  let config: StoreConfig | undefined;
  let dropDb: (() => Promise<void>) | undefined;

  const runCli = async (args: string[], e: Env) => {
    const i = args.indexOf("--as");
    const who = i >= 0 ? args[i + 1] : undefined;
    const sessionEnv = { ...e, CTL_SESSION_FILE: path.join(tmp, `session-${who ?? "nobody"}.json`) };
    if (who) await writeOperatorSession(sessionEnv, who);
    return runCliRaw(args, sessionEnv);
  };
  const started = () => {
    if (!env || !config) throw new Error("useCtlStore: the store exists only inside tests and hooks, after beforeAll");
    return { env, config };
  };

  beforeAll(async () => {
    requirePostgresInCi();
    if (process.env.DATABASE_URL) {
      const created = await createPostgresDatabase(process.env.DATABASE_URL);
      dropDb = created.drop;
      env = { DATABASE_URL: created.url, DATA_DIR: tmp, ...options.env };
      config = { kind: "postgres", url: created.url, poolMax: 2 };
    } else {
      env = { DATABASE_URL: "", DATA_DIR: path.join(tmp, "data"), ...options.env };
      config = { kind: "pglite", dataDir: path.join(tmp, "data", "pglite") };
    }
    expect((await runCli(["migrate"], env)).code).toBe(0);
    expect((await runCli(["seed-demo", "--records", "0"], env)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await dropDb?.();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  return {
    tmp,
    get env() {
      return started().env;
    },
    runCli,
    inStore: async (fn) => {
      const store = await openStore(started().config);
      try {
        return await fn(store.db);
      } finally {
        await store.close();
      }
    },
  };
}
