// Method: two app instances (each with its own connection pool and its own MCP endpoint) on one
// database. A client of instance B calls generate_report in a loop; the kill switch is engaged
// through instance A's store; the time from the engage committing to B's first refused call is
// recorded. T trials, released (two people) between trials. PostgreSQL only: the embedded store
// is one process by design.
import http from "node:http";
import type net from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { openStore, type Store } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { cachedPolicy } from "@/lib/policy/policy-source";
import { createAppRoutes } from "@/lib/server/app-routes";
import { percentile, round, type BenchResult } from "./stats";

export async function killSwitchPropagation(config: StoreConfig & { kind: "postgres" }, trials: number): Promise<BenchResult[]> {
  const a: Store = await openStore({ ...config, poolMax: 4 });
  const b: Store = await openStore({ ...config, poolMax: 4 });
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  process.env.APP_URL = `http://localhost:${port}`;
  // Instance B serves the client with its policy cached in memory, as `ctl serve` does: what is
  // measured is the database's change notification reaching it.
  const policy = await cachedPolicy(b);
  const routes = createAppRoutes(async () => b.db, policy);
  server.on("request", (req, res) => void routes(req, res).then((done) => (done ? undefined : res.writeHead(404).end())));
  const token = await mintMcpAccessToken(createDevProvider(), {
    subject: "user-bob-1002",
    tenant: "acme",
    ttlSeconds: 3600,
    mcpResource: `http://localhost:${port}/api/mcp`,
  });
  const client = new Client({ name: "bench-propagation", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { environment: "staging", format: "pdf" } }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const delays: number[] = [];
  try {
    for (let i = 0; i < trials; i++) {
      await engageKillSwitch(a.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: `propagation trial ${i}` });
      const committed = performance.now();
      for (;;) {
        const r = await client.callTool({ name: "generate_report", arguments: {} });
        if (r.isError && JSON.stringify(r.content).includes("kill switch")) break;
        if (performance.now() - committed > 10_000) throw new Error("kill switch not seen within 10 s");
      }
      delays.push(performance.now() - committed);
      await releaseKillSwitch(a.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: "trial over" });
      await releaseKillSwitch(a.db, { type: "operator", id: "op-admin-0001" }, { scope: "mode:form", reason: "trial over" });
    }
  } finally {
    await client.close();
    await policy.close();
    server.closeAllConnections();
    server.close();
    await a.close();
    await b.close();
  }
  const p99 = percentile(delays, 99);
  return [
    {
      name: `kill-switch propagation to another instance (${trials} trials)`,
      metric: "p99",
      unit: "ms",
      value: round(p99),
      baseline: round(percentile(delays, 50)),
      baselineName: "p50 of the same trials",
      ratio: null,
      target: "<= 1000 ms (aim 100 ms)",
      holds: p99 <= 1000,
      note: "time to the first refused call, including that call's round trip",
    },
  ];
}
