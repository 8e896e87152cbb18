// A throwaway deployment of the production build for the load run and the fault drills: a fresh
// store (a new PostgreSQL database next to DATABASE_URL, or a temporary embedded store), migrated
// and seeded with the demo tenants and accounts, and one or more `ctl serve` instances on it.
// Each instance is a single Node process (tsx as an import hook, not a wrapper process), so a
// SIGKILL really kills the instance and its peak memory is that one process's.
import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createDatabaseNextTo } from "@/db/create-database";
import { openStore, type Store } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { migrateStore } from "@/db/migrate";
import { seedDemo } from "@/lib/demo/seed";

export const root = path.resolve(import.meta.dirname, "..");

export interface Deployment {
  kind: "postgres" | "pglite";
  /** The deployment's data directory (the embedded store lives here; instances use it unless given their own). */
  dataDir: string;
  /**
   * The keys every instance must share, as configuration (never a shared volume): session, connect
   * nonce, vault, audit signing, metrics and the bundled providers' client secrets.
   */
  secrets: Record<string, string>;
  databaseUrl?: string;
  /** Opens the deployment's store from this process (PGlite: only while no instance runs). */
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

export function requireBuild(): void {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** A fresh deployment store; `publicUrl` is the origin users and clients will see (APP_URL). */
export async function prepareDeployment(publicUrl: string, opts: { postgres?: string } = {}): Promise<Deployment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-deploy-"));
  let config: StoreConfig;
  let drop = async () => {};
  if (opts.postgres) {
    const created = await createDatabaseNextTo(opts.postgres, "eg_drill");
    config = { kind: "postgres", url: created.url, poolMax: 4 };
    drop = created.drop;
  } else {
    config = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
  }
  const open = () => openStore(config, { purpose: "deployment set-up" });
  const store = await open();
  // The instances' keys: the seed seals the demo provider's secret with their vault key.
  const secrets = deploymentSecrets();
  try {
    await migrateStore(store, config);
    await seedDemo(store.db, { records: 0, appUrl: publicUrl, env: { ...process.env, ...secrets } });
  } finally {
    await store.close();
  }
  return {
    kind: config.kind === "postgres" ? "postgres" : "pglite",
    dataDir,
    secrets,
    databaseUrl: config.kind === "postgres" ? config.url : undefined,
    open,
    dispose: async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fresh random values for every key an instance needs (lib/config/secrets.ts, the vault, the signer). */
export function deploymentSecrets(): Record<string, string> {
  const rnd = () => randomBytes(32).toString("base64url");
  const { privateKey } = generateKeyPairSync("ed25519");
  return {
    SESSION_SECRET: rnd(),
    CONNECT_NONCE_KEY: rnd(),
    METRICS_TOKEN: rnd(),
    DEV_IDP_CONSOLE_CLIENT_SECRET: rnd(),
    DEMO_DOWNSTREAM_CLIENT_SECRET: rnd(),
    VAULT_KEY: randomBytes(32).toString("base64"),
    VAULT_KEY_ID: "deployment-1",
    AUDIT_SIGNING_KEY: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  };
}

/**
 * Benchmarks and drills drive many calls for one subject from one loopback address: the abuse
 * limits (lib/abuse/config.ts) would refuse them. Every MCP POST counts, including the client's
 * answer to an elicitation, so one elicitation call costs two points and a sequential benchmark of
 * one user reaches the default 600 a minute after 300 calls (its answer refused, the call then
 * hangs until the elicitation times out). A run that tests the limits sets them itself.
 */
export const BENCH_ABUSE_LIMITS: Readonly<Record<string, string>> = {
  MCP_RATE_LIMIT_PER_ADDRESS: "100000000",
  MCP_RATE_LIMIT_PER_SUBJECT: "100000000",
  CONNECT_RATE_LIMIT_PER_ADDRESS: "100000000",
  MCP_MAX_SESSIONS_PER_SUBJECT: "100000",
};

/** For the benchmarks that mount the app routes in this process (they read process.env). */
export function applyBenchAbuseLimits(): void {
  for (const [k, v] of Object.entries(BENCH_ABUSE_LIMITS)) process.env[k] ??= v;
}

function procStatusBytes(pid: number | undefined, field: "VmHWM" | "VmRSS"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

export interface Instance {
  port: number;
  /** This instance's own DATA_DIR (the deployment's, unless started with ownDataDir). */
  dataDir: string;
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** Peak resident memory of the instance process so far (VmHWM), in bytes. */
  peakRss(): number;
  /** Resident memory of the instance process now (VmRSS), in bytes. */
  rss(): number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `ctl serve` on the deployment; `publicUrl` defaults to the instance's own origin. */
export async function startInstance(
  dep: Deployment,
  opts: { port?: number; publicUrl?: string; env?: Record<string, string>; ownDataDir?: boolean } = {},
): Promise<Instance> {
  requireBuild();
  const port = opts.port ?? (await freePort());
  const baseUrl = `http://localhost:${port}`;
  // An instance with its own data directory shares nothing on disk with the others: whatever they
  // must agree on comes from the deployment's configured secrets (as on separate machines).
  const dataDir = opts.ownDataDir ? fs.mkdtempSync(path.join(os.tmpdir(), "eg-instance-")) : dep.dataDir;
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    APP_ENV: "development",
    ...dep.secrets,
    DATA_DIR: dataDir,
    DATABASE_URL: dep.databaseUrl ?? "",
    APP_URL: opts.publicUrl ?? baseUrl,
    PORT: String(port),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    ...BENCH_ABUSE_LIMITS,
    ...opts.env,
  };
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/cli/main.ts"), "serve", "--port", String(port)], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited early (${child.exitCode}):\n${out}`);
    if (Date.now() > deadline) throw new Error(`instance did not answer at ${baseUrl} within 90 s:\n${out}`);
    try {
      if ((await fetch(`${baseUrl}/.well-known/oauth-protected-resource`)).status < 500) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    dataDir,
    baseUrl,
    child,
    output: () => out,
    peakRss: () => procStatusBytes(child.pid, "VmHWM"),
    rss: () => procStatusBytes(child.pid, "VmRSS"),
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      if (dataDir !== dep.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
