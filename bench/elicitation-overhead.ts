// Method: the same tools/call that performs one form elicitation, answered at once by the SDK
// client, over Streamable HTTP on loopback; N sequential calls after W warm-up calls, against
// (a) this server's real MCP endpoint (bearer verification, flow policy, kill switches, linting,
// record and event writes, server-side validation) and (b) a bare SDK McpServer on the SDK's Node
// transport doing the same elicitation with nothing else. Both in this process, measured in
// alternating rounds so machine noise hits both alike.
import { alternate, overheadRows } from "./overhead-compare";
import http from "node:http";
import type net from "node:net";
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Store } from "@/db/client";
import { cachedPolicy } from "@/lib/policy/policy-source";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { createAppRoutes } from "@/lib/server/app-routes";
import { reportParameters } from "@/lib/workflows/generate-report";
import { commitProbe } from "./commit-floor";
import { applyBenchAbuseLimits } from "./deployment";
import type { BenchResult } from "./stats";

const ANSWER = { environment: "staging", format: "pdf" };

async function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://localhost:${port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

function bareServer() {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return listen(async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      const server = new McpServer({ name: "bare", version: "1" });
      server.registerTool("generate_report", { inputSchema: {} }, async (_args, extra) => {
        const r = await server.server.elicitInput(
          { message: reportParameters.message, requestedSchema: reportParameters.schema as never },
          { relatedRequestId: extra.requestId, timeout: 60_000 },
        );
        return { content: [{ type: "text", text: r.action }] };
      });
      await server.connect(transport);
    }
    await transport.handleRequest(req, res);
  });
}

async function client(url: string, token?: string) {
  const c = new Client({ name: "bench", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: ANSWER }));
  await c.connect(
    new StreamableHTTPClientTransport(
      new URL(`${url}/api/mcp`),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  return c;
}

async function timeCalls(c: Client, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await c.callTool({ name: "generate_report", arguments: {} });
    out.push(performance.now() - t0);
    if (r.isError) throw new Error(`benchmark call failed: ${JSON.stringify(r.content)}`);
  }
  return out;
}

export async function elicitationOverhead(store: Store, opts: { calls: number; rounds: number }): Promise<BenchResult[]> {
  const db = store.db;
  // Our endpoint: the production routes on a loopback port (APP_URL must point at it).
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  process.env.APP_URL = `http://localhost:${port}`;
  applyBenchAbuseLimits();
  // As `ctl serve` runs it: the policy cached in memory, refreshed on the database's notification.
  const policy = await cachedPolicy(store);
  const routes = createAppRoutes(async () => db, policy);
  server.on("request", (req, res) => void routes(req, res).then((done) => (done ? undefined : res.writeHead(404).end())));
  const bare = await bareServer();
  const token = await mintMcpAccessToken(createDevProvider(), {
    subject: "user-alice-1001",
    tenant: "acme",
    ttlSeconds: 3600,
    mcpResource: `http://localhost:${port}/api/mcp`,
  });
  const oc = await client(`http://localhost:${port}`, token);
  const bc = await client(bare.url); // the bare server has no router: any path is its endpoint
  const probe = await commitProbe(store);
  const measured = await alternate(oc, bc, timeCalls, { ...opts, commits: probe.time });
  await probe.drop();
  await oc.close();
  await bc.close();
  await bare.close();
  await policy.close();
  // The idle-session sweeper's timer would outlive the store (mcp.sweep_failed after the run).
  routes.close?.();
  server.closeAllConnections();
  server.close();
  const base = {
    name: "elicitation overhead",
    baselineName: "bare SDK McpServer, same elicitation",
    note: "the record is written before the request leaves and the outcome before the result returns (two durable writes), plus the tenant and cool-down reads; the bare server does no I/O (docs/PERFORMANCE.md)",
  };
  return overheadRows(base, measured);
}
