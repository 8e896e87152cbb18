// `ctl serve` runs the built app on the configured store; `ctl demo` does the same after
// migrating and seeding an empty store. Both stop cleanly on SIGINT/SIGTERM, releasing the store.
import fs from "node:fs";
import path from "node:path";
import { openStore } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { migrateStore } from "@/db/migrate";
import { refreshDemoProvider } from "@/lib/demo/provider";
import { isStoreEmpty, seedDemo } from "@/lib/demo/seed";
import { seedDemoUpstream } from "@/lib/demo/seed-upstream";
import { drainGraceMs } from "@/lib/server/lifecycle";
import { serve, type Served } from "@/lib/server/serve";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { isLoopbackHost } from "@/lib/policy/url-check";
import { readSetting } from "@/lib/config/schema";
import { assertConfig } from "@/lib/config/startup";
import { parse, positiveInt } from "../args";
import { CliError } from "../errors";

export async function serveCommand(argv: string[], demo: boolean): Promise<number> {
  const { values } = parse(argv, { port: { type: "string" }, hostname: { type: "string" }, records: { type: "string" } });
  // Every setting is checked before anything starts: a bad value stops here with one line naming it.
  assertConfig();
  const port = values.port === undefined ? readSetting(process.env, "PORT") : positiveInt("port", values.port, 3000);
  const hostname = values.hostname ?? readSetting(process.env, "HOSTNAME_BIND");
  const dir = process.cwd();
  // The development identity provider signs anyone in with the password "demo": never let it be
  // reachable from the network by accident.
  if (oidcConfig().devProvider && !isLoopbackHost(hostname) && readSetting(process.env, "DEV_IDP_ENABLED") !== true) {
    throw new CliError(
      `refusing to serve the development identity provider on ${hostname}: set OIDC_ISSUER for a real one, bind to 127.0.0.1, or set DEV_IDP_ENABLED=true if you really mean it`,
    );
  }
  if (!fs.existsSync(path.join(dir, ".next", "BUILD_ID"))) {
    throw new CliError("no production build found; run `npm run build` first (npm run demo does this for you)");
  }
  const config = storeConfigFromEnv();
  const store = await openStore(config, { purpose: demo ? "npm run demo" : "ctl serve" });
  let served: Served;
  const graceMs = drainGraceMs();
  try {
    await migrateStore(store, config);
    if (demo && (await isStoreEmpty(store.db))) {
      const summary = await seedDemo(store.db, { records: positiveInt("records", values.records, 2000) });
      // The demo upstream with two weeks of its own records, so the console shows it from the start.
      const upstream = await seedDemoUpstream(store.db, { records: Math.max(10, Math.round(summary.records / 20)) });
      process.stdout.write(
        `seeded demo data: ${summary.records} records, ${summary.auditEntries} audit entries, ${upstream.records} records of the demo upstream\n`,
      );
    }
    // The demo provider's registry row follows this start's APP_URL and development secret.
    if (demo) await refreshDemoProvider(store.db);
    served = await serve({ port, hostname, dir, store, controlDir: config.kind === "pglite" ? config.dataDir : undefined });
    if (demo) {
      // One real MCP server behind the gateway, registered for tenant acme (lib/demo/upstream.ts).
      const { startDemoUpstream } = await import("@/lib/demo/upstream");
      const upstreamPort = Number(process.env.DEMO_UPSTREAM_PORT ?? port + 1);
      const upstream = await startDemoUpstream(store.db, upstreamPort).catch((err: unknown) => {
        process.stdout.write(`demo upstream not started: ${err instanceof Error ? err.message : "error"}\n`);
        return undefined;
      });
      if (upstream) {
        process.stdout.write(`demo upstream server-everything on ${upstream.url}, registered for tenant acme as "everything"\n`);
        process.once("exit", upstream.stop);
      }
    }
  } catch (err) {
    await store.close();
    throw err;
  }
  const where = `http://${hostname === "127.0.0.1" || hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`;
  process.stdout.write(
    `\nElicitation gateway ${demo ? "demo " : ""}ready on ${where} (store: ${store.kind} ${store.location})\nPress Ctrl+C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const { server, lifecycle } = served;
    // SIGTERM (a rolling restart): drain first, readiness fails at once, in-flight requests get
    // DRAIN_GRACE_SECONDS. SIGINT (Ctrl+C in a terminal): the same, and a second one stops at once.
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) {
        server.closeAllConnections();
        return;
      }
      stopping = true;
      process.stdout.write(`${signal}: draining (up to ${Math.round(graceMs / 1000)} s for ${lifecycle.inflight} request(s) in flight)\n`);
      const { finished, left } = await lifecycle.drain(graceMs);
      if (!finished) process.stdout.write(`grace period over; closing ${left} request(s) still in flight\n`);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.once("SIGTERM", () => void stop("SIGTERM"));
  });
  await store.close();
  return 0;
}
