// Starts the production build on a fresh, migrated, seeded store for the browser tests:
// a new PostgreSQL database when DATABASE_URL is set, a temporary PGlite directory otherwise.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../bench/deployment";
import { chromiumPath } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { createPostgresDatabase, requirePostgresInCi } from "../helpers/test-store";

const root = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    appEnv: Record<string, string>;
    serverLog: string;
    seed: { records: number; sessions: number; auditEntries: number };
  }
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app server exited early (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`app server did not answer at ${url} within 90 s:\n${log()}`);
}

export default async function setup(project: TestProject) {
  chromiumPath(); // fail fast, before the slow parts, when the browser is missing
  requirePostgresInCi();
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("no production build: run `npm run build` first (npm run test:e2e does)");
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-e2e-"));
  let drop: (() => Promise<void>) | undefined;
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  // APP_URL is the one public origin: the issuer, the MCP resource and the cookies all hang off it.
  const env: Record<string, string> = {
    DATA_DIR: tmp,
    DATABASE_URL: "",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: baseUrl,
    PORT: String(port),
    APP_ENV: "development",
  };
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    drop = created.drop;
    env.DATABASE_URL = created.url;
  }
  // The server's own log, which the tests search for canaries and a console gate run searches too.
  const serverLog = path.join(tmp, "server.log");
  env.GATES_LOG_FILE = serverLog;
  const seeded = await runCli(["seed-demo", "--records", "600", "--json"], env);
  if (seeded.code !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  const seed = JSON.parse(seeded.stdout);

  const logStream = fs.createWriteStream(serverLog);
  let output = "";
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "lib/cli/main.ts"), "serve", "--port", String(port)],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Everything the server prints is kept: tests search it for planted canary values.
  child.stdout!.on("data", (d) => ((output += d), logStream.write(d)));
  child.stderr!.on("data", (d) => ((output += d), logStream.write(d)));
  await waitForServer(baseUrl, child, () => output);

  project.provide("baseUrl", baseUrl);
  project.provide("appEnv", env);
  project.provide("serverLog", serverLog);
  project.provide("seed", { records: seed.records, sessions: seed.sessions, auditEntries: seed.auditEntries });

  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    await drop?.();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
