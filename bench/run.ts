// `npm run bench [-- --full]`: benchmarks with a baseline measured in the same run. Prints a table
// and writes bench/results.json. Runs against PostgreSQL when DATABASE_URL is set (a fresh database
// is created next to it and dropped afterwards) and against a temporary embedded store otherwise.
// Figures, not timed tests: nothing here fails a build; each result says whether its target holds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabaseNextTo } from "@/db/create-database";
import { openStore, type Store } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { migrateStore } from "@/db/migrate";
import { seedDemo } from "@/lib/demo/seed";
import { consoleQueries, seedSyntheticRecords } from "./console-queries";
import { elicitationOverhead } from "./elicitation-overhead";
import { elicitationOverheadModern } from "./elicitation-overhead-modern";
import { evidence, seedAudit } from "./evidence";
import { gatewayForward } from "./gateway-forward";
import { killSwitchPropagation } from "./kill-switch-propagation";
import { bulkRevocation } from "./revocation";
import type { BenchResult } from "./stats";

const full = process.argv.includes("--full");
// `--only console,export`: run some benchmarks (names: console, propagation, overhead, gateway, export, revocation).
const onlyArg =
  process.argv.find((a) => a.startsWith("--only="))?.slice(7) ??
  (process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined);
const only = onlyArg ? new Set(onlyArg.split(",")) : undefined;
const wanted = (name: string) => !only || only.has(name);
const log = (s: string) => process.stderr.write(`${s}\n`);

async function freshStore(): Promise<{ store: Store; config: StoreConfig; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-bench-"));
  process.env.DATA_DIR = dataDir;
  if (base) {
    const created = await createDatabaseNextTo(base, "eg_bench");
    const config: StoreConfig = { kind: "postgres", url: created.url, poolMax: 10 };
    const store = await openStore(config);
    await migrateStore(store, config);
    return {
      store,
      config,
      drop: async () => {
        await store.close();
        await created.drop();
      },
    };
  }
  const config: StoreConfig = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
  const store = await openStore(config, { purpose: "npm run bench" });
  await migrateStore(store, config);
  return { store, config, drop: () => store.close() };
}

// The machine is shared: its load is written beside the figures so a reader can weigh them.
const loadAtStart = os.loadavg().map((l) => Math.round(l * 100) / 100);

async function main() {
  const { store, config, drop } = await freshStore();
  const pg = store.kind === "postgres";
  const sizes = {
    records: full ? 10_000_000 : pg ? 1_000_000 : 200_000,
    audit: full ? 1_000_000 : pg ? 200_000 : 50_000,
    revoke: 100_000,
    calls: full ? 200 : 100,
    rounds: 3,
  };
  const results: BenchResult[] = [];
  try {
    await seedDemo(store.db, { records: 0 });
    const flowIds = [
      "generate_report:visual-studio-code",
      "generate_report:claude-code",
      "list_repositories:visual-studio-code",
      "purge_report_cache:cursor-vscode",
    ];
    if (wanted("console")) {
      log(`seeding ${sizes.records.toLocaleString("en-US")} records (${store.kind})...`);
      const t = performance.now();
      await seedSyntheticRecords(store.db, sizes.records, flowIds);
      log(`  seeded in ${Math.round((performance.now() - t) / 1000)} s`);
      log("console queries...");
      results.push(...(await consoleQueries(store.db, { records: sizes.records, runs: 20 })));
    }
    if (config.kind === "postgres" && wanted("propagation")) {
      log("kill-switch propagation across two instances...");
      results.push(...(await killSwitchPropagation(config, 20)));
    }
    if (wanted("overhead")) {
      log("elicitation overhead...");
      results.push(...(await elicitationOverhead(store, { calls: sizes.calls, rounds: sizes.rounds })));
      results.push(...(await elicitationOverheadModern(store, { calls: sizes.calls, rounds: sizes.rounds })));
    }
    if (wanted("export")) {
      log(`seeding ${sizes.audit.toLocaleString("en-US")} audit entries...`);
      await seedAudit(store, sizes.audit);
      log("evidence export and verify...");
      results.push(...(await evidence(store, sizes.audit)));
    }
    if (wanted("revocation")) {
      log(`bulk revocation of ${sizes.revoke.toLocaleString("en-US")}...`);
      results.push(...(await bulkRevocation(store.db, sizes.revoke)));
    }
    // Last: it points APP_URL at its own in-process server.
    if (wanted("gateway")) {
      log("gateway: forwarded calls vs the same calls direct to the upstream...");
      results.push(...(await gatewayForward(store, { calls: sizes.calls, rounds: sizes.rounds })));
    }
  } finally {
    await drop();
  }
  const out = {
    ranAt: new Date().toISOString(),
    store: store.kind,
    mode: full ? "full" : "quick",
    machine: {
      cpus: os.cpus().length,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverage: { atStart: loadAtStart, atEnd: os.loadavg().map((l) => Math.round(l * 100) / 100) },
    },
    sizes,
    results,
  };
  fs.mkdirSync(path.join(import.meta.dirname), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, "results.json"), JSON.stringify(out, null, 2) + "\n");
  const rows = results.map((r) => [
    r.name,
    r.metric,
    `${r.value} ${r.unit}`,
    r.baseline === null ? "-" : `${r.baseline} ${r.unit} (${r.baselineName})`,
    r.ratio === null ? "-" : `${r.ratio}x`,
    r.target,
    r.holds ? "holds" : "MISSES",
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  for (const r of [["benchmark", "metric", "figure", "baseline", "ratio", "target", "result"], ...rows])
    process.stdout.write(r.map((c, i) => c.padEnd(widths[i]!)).join("  ") + "\n");
  process.stdout.write(`\nstore: ${store.kind}; results in bench/results.json\n`);
}

main().catch((err) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
