// `npm run load [-- --clients 16 --seconds 20]`: N concurrent SDK clients for T seconds against the
// production build (`ctl serve`) on a fresh store (PostgreSQL when DATABASE_URL is set, embedded
// otherwise). Afterwards the store is reconciled exactly against what the clients saw. Prints calls
// per second, latency percentiles and the instance's peak memory, and writes bench/load-results.json.
// Exits non-zero when the counts do not reconcile.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { freePort, prepareDeployment, startInstance } from "./deployment";
import { runLoad } from "./load-clients";
import { runPendingDisconnect } from "./pending-clients";
import { reconcileLoad } from "./reconcile-load";
import { percentile, round } from "./stats";

export function tokenMinter(dataDir: string, publicUrl: string, secrets: Record<string, string> = {}) {
  const env = { ...process.env, ...secrets, DATA_DIR: dataDir, APP_URL: publicUrl, OIDC_ISSUER: "" };
  const provider = createDevProvider(env);
  const cache = new Map<string, Promise<string>>();
  // The client id selects the flow (lib/policy/resolve-flow.ts): ctl unless a client says otherwise.
  return (subject: string, clientId = "ctl") => {
    const key = `${clientId}\u0000${subject}`;
    let t = cache.get(key);
    if (!t)
      cache.set(
        key,
        (t = mintMcpAccessToken(provider, { subject, tenant: "acme", ttlSeconds: 3600, mcpResource: `${publicUrl}/api/mcp`, clientId })),
      );
    return t;
  };
}

async function main() {
  const { values } = parseArgs({
    options: { clients: { type: "string", default: "16" }, seconds: { type: "string", default: "20" }, pending: { type: "string" } },
  });
  if (values.pending !== undefined) return pendingRun(values.pending);
  const clients = Number(values.clients);
  const seconds = Number(values.seconds);
  if (!Number.isInteger(clients) || clients < 1 || !(seconds > 0))
    throw new Error("--clients must be a whole number >= 1 and --seconds a positive number");
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const dep = await prepareDeployment(publicUrl, { postgres: process.env.DATABASE_URL || undefined });
  process.stderr.write(`load: ${clients} clients for ${seconds} s against the production build on ${dep.kind}\n`);
  // A short cool-down so repeats are prevented during the run, and the path is exercised.
  const instance = await startInstance(dep, { port, env: { ELICITATION_COOLDOWN_SECONDS: "0.2" } });
  const runId = `load-${Date.now().toString(36)}`;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, instance.peakRss())), 500);
  try {
    const { calls, elapsedMs } = await runLoad({
      mcpUrl: `${publicUrl}/api/mcp`,
      token: tokenMinter(dep.dataDir, publicUrl),
      clients,
      durationMs: seconds * 1000,
      runId,
    });
    peak = Math.max(peak, instance.peakRss());
    clearInterval(sampler);
    await instance.stop();
    const store = await dep.open();
    const rec = await reconcileLoad(store.db, runId, calls).finally(() => store.close());
    const ms = calls.map((c) => c.ms);
    const outcomes: Record<string, number> = {};
    for (const c of calls) outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
    const result = {
      ranAt: new Date().toISOString(),
      store: dep.kind,
      machine: { cpus: os.cpus().length, node: process.version },
      clients,
      seconds,
      calls: calls.length,
      callsPerSecond: round((calls.length / elapsedMs) * 1000, 1),
      latencyMs: {
        p50: round(percentile(ms, 50)),
        p95: round(percentile(ms, 95)),
        p99: round(percentile(ms, 99)),
        max: round(Math.max(...ms)),
      },
      peakRssMb: round(peak / 2 ** 20, 1),
      outcomes,
      reconciliation: rec,
    };
    fs.writeFileSync(path.join(import.meta.dirname, "load-results.json"), JSON.stringify(result, null, 2) + "\n");
    const w = (k: string, v: unknown) => process.stdout.write(`${k.padEnd(22)} ${typeof v === "string" ? v : JSON.stringify(v)}\n`);
    w("store", dep.kind);
    w("clients x seconds", `${clients} x ${seconds}`);
    w("calls", String(result.calls));
    w("calls per second", String(result.callsPerSecond));
    w("latency ms", result.latencyMs);
    w("peak RSS (instance)", `${result.peakRssMb} MB`);
    w("outcomes", outcomes);
    w("records by state", rec.byState);
    w("prevented repeats", String(rec.preventedRepeats));
    w("audit chain", `${rec.auditEntries} entries verified`);
    w("reconciliation", rec.ok ? "PASS: exact" : `FAIL\n  ${rec.problems.join("\n  ")}`);
    if (!rec.ok) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await instance.stop();
    await dep.dispose();
  }
}

/**
 * `npm run load -- --pending 4000`: N users each leave one form pending, then go away (issue 19;
 * bench/pending-clients.ts). Needs PostgreSQL (the store is read while the instance runs). Writes
 * bench/pending-results.json; exits non-zero when anything is left in flight or does not reconcile.
 */
async function pendingRun(raw: string) {
  const clients = Number(raw);
  if (!Number.isInteger(clients) || clients < 2) throw new Error("--pending must be a whole number >= 2");
  if (!process.env.DATABASE_URL) throw new Error("--pending needs PostgreSQL: set DATABASE_URL");
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const dep = await prepareDeployment(publicUrl, { postgres: process.env.DATABASE_URL });
  process.stderr.write(`load: ${clients} pending form elicitations against the production build on ${dep.kind}\n`);
  // Dropped clients' sessions stay resumable until idle eviction (30 min by default): short here
  // (unless set), so the run can see their memory given back.
  const instance = await startInstance(dep, { port, env: { MCP_SESSION_IDLE_SECONDS: process.env.MCP_SESSION_IDLE_SECONDS ?? "15" } });
  const store = await dep.open();
  try {
    const report = await runPendingDisconnect({
      mcpUrl: `${publicUrl}/api/mcp`,
      token: tokenMinter(dep.dataDir, publicUrl, dep.secrets),
      clients,
      runId: `pending-${Date.now().toString(36)}`,
      serverRss: () => instance.rss(),
      db: store.db,
      log: (line) => process.stderr.write(`  ${line}\n`),
    });
    const result = {
      ranAt: new Date().toISOString(),
      store: dep.kind,
      machine: { cpus: os.cpus().length, node: process.version },
      ...report,
    };
    fs.writeFileSync(path.join(import.meta.dirname, "pending-results.json"), JSON.stringify(result, null, 2) + "\n");
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    process.stdout.write(report.problems.length === 0 ? "pending run: PASS\n" : `pending run: FAIL\n  ${report.problems.join("\n  ")}\n`);
    if (report.problems.length > 0) process.exitCode = 1;
  } finally {
    await store.close();
    await instance.stop();
    await dep.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`load: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
