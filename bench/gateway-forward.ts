// Method (issue 13, item 6): the same tools/call against an upstream MCP server (a bare SDK server
// on the SDK's Node transport, in this process) made (a) through the gateway, i.e. this app's real
// /api/mcp with bearer verification, the registry lookup, the gateway's pooled upstream session for
// that person (opened on the warm-up call, then reused), the signed identity assertion on every
// request and, for the second pair, the engine's
// lint, record and re-validation of one form elicitation; and (b) directly against the upstream on
// an already-open session. Alternating rounds in the same run, so noise hits both alike.
import http from "node:http";
import type net from "node:net";
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitRequestSchema, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Store } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { addUpstream, removeUpstream } from "@/lib/gateway/registry";
import { cachedPolicy } from "@/lib/policy/policy-source";
import { createAppRoutes } from "@/lib/server/app-routes";
import { alternate, overheadRows } from "./overhead-compare";
import { percentile, round, type BenchResult } from "./stats";

const FORM = { message: "Nickname?", requestedSchema: { type: "object", properties: { nickname: { type: "string", maxLength: 40 } } } };

async function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

function upstreamServer() {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return listen(async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      const server = new McpServer({ name: "bench-upstream", version: "1" });
      server.registerTool("echo", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "ok" }] }));
      server.registerTool("ask", { inputSchema: {} }, async (_args, extra) => {
        const r = await server.server.request({ method: "elicitation/create", params: FORM as never }, ElicitResultSchema, {
          relatedRequestId: extra.requestId,
          timeout: 60_000,
        });
        return { content: [{ type: "text", text: r.action }] };
      });
      await server.connect(transport);
    }
    await transport.handleRequest(req, res);
  });
}

async function client(url: string, token?: string) {
  const c = new Client({ name: "bench", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { nickname: "Zed" } }));
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  );
  return c;
}

const timer =
  (tool: string) =>
  async (c: { client: Client; prefix: string }, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await c.client.callTool({ name: `${c.prefix}${tool}`, arguments: {} });
      out.push(performance.now() - t0);
      if (r.isError) throw new Error(`benchmark call failed: ${JSON.stringify(r.content)}`);
    }
    return out;
  };

export async function gatewayForward(store: Store, opts: { calls: number; rounds: number }): Promise<BenchResult[]> {
  const db = store.db;
  const previousStage = process.env.FLOW_NEW_STAGE;
  // The bench's upstream tool flows admit everyone (a deployment opens them with ctl flows).
  process.env.FLOW_NEW_STAGE = "canary:100";
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  process.env.APP_URL = `http://localhost:${port}`;
  const policy = await cachedPolicy(store);
  const routes = createAppRoutes(async () => db, policy);
  server.on("request", (req, res) => void routes(req, res).then((done) => (done ? undefined : res.writeHead(404).end())));
  const upstream = await upstreamServer();
  await addUpstream(db, "bench", {
    id: "benchup",
    displayName: "Bench upstream",
    url: upstream.url,
    tenants: ["acme"],
    exposedTools: ["*"],
  });
  try {
    const token = await mintMcpAccessToken(createDevProvider(), {
      subject: "user-alice-1001",
      tenant: "acme",
      ttlSeconds: 3600,
      mcpResource: `http://localhost:${port}/api/mcp`,
    });
    const gw = { client: await client(`http://localhost:${port}/api/mcp`, token), prefix: "benchup__" };
    const direct = { client: await client(upstream.url), prefix: "" };
    const plain = await alternate(gw, direct, timer("echo"), opts);
    // What the pool buys, in the same run: the same forwarded call with pooling off (every call
    // opens, initializes and closes its own upstream session, as before the pool).
    // Other people (the app rate-limits each account): their own pooled sessions, their own budget.
    const other = async (subject: string) =>
      client(
        `http://localhost:${port}/api/mcp`,
        await mintMcpAccessToken(createDevProvider(), {
          subject,
          tenant: "acme",
          ttlSeconds: 3600,
          mcpResource: `http://localhost:${port}/api/mcp`,
        }),
      );
    const poolClient = { client: await other("user-bench-pool"), prefix: "benchup__" };
    const pooling = await alternate(
      { ...poolClient, pool: true },
      { ...poolClient, pool: false },
      async (c, n) => {
        const before = process.env.GATEWAY_POOL_MAX_SESSIONS;
        process.env.GATEWAY_POOL_MAX_SESSIONS = c.pool ? (before ?? "256") : "0";
        try {
          return await timer("echo")(c, n);
        } finally {
          if (before === undefined) delete process.env.GATEWAY_POOL_MAX_SESSIONS;
          else process.env.GATEWAY_POOL_MAX_SESSIONS = before;
        }
      },
      { calls: Math.max(10, Math.round(opts.calls / 3)), rounds: opts.rounds },
    );
    const withForm = await alternate(gw, direct, timer("ask"), opts);
    // The floor of any proxy: the client's hop to this app (its cheapest own tool, same client,
    // same run) plus the upstream's own call. What the gateway adds beyond both shows against it.
    const ownClient = await other("user-bench-own");
    const own = await timer("describe_capabilities")({ client: ownClient, prefix: "" }, opts.calls * opts.rounds);
    await poolClient.client.close();
    await ownClient.close();
    const floor = percentile(own, 50) + percentile(plain.bareT, 50);
    const gwP50 = percentile(plain.oursT, 50);
    await gw.client.close();
    await direct.client.close();
    return [
      ...overheadRows(
        {
          name: "gateway: forwarded tools/call",
          baselineName: "the same call directly to the upstream",
          note: "the gateway reuses its pooled upstream session for this person and signs a fresh identity assertion per request; both clients reuse one open session",
        },
        plain,
      ),
      {
        name: "gateway: forwarded tools/call",
        metric: "p50 vs proxy floor",
        unit: "ms",
        value: round(gwP50),
        baseline: round(floor),
        baselineName: `floor: this app's own describe_capabilities p50 (${round(percentile(own, 50))} ms) + the direct upstream call p50, same run`,
        ratio: round(gwP50 / floor),
        target: "<= 1.2x",
        holds: gwP50 / floor <= 1.2,
        note: "a no-op upstream tool behind any proxy costs at least one hop to the proxy plus the upstream's call: the 1.2x-of-direct target cannot hold for it; this row shows what the gateway adds beyond that floor",
      },
      {
        name: "gateway: forwarded tools/call, pooled upstream session",
        metric: "p50 latency",
        unit: "ms",
        value: round(percentile(pooling.oursT, 50)),
        baseline: round(percentile(pooling.bareT, 50)),
        baselineName: "the same forwarded call with pooling off (GATEWAY_POOL_MAX_SESSIONS=0: a session per call), same run",
        ratio: round(percentile(pooling.oursT, 50) / percentile(pooling.bareT, 50)),
        target: "< 1x",
        holds: percentile(pooling.oursT, 50) < percentile(pooling.bareT, 50),
      },
      ...overheadRows(
        {
          name: "gateway: forwarded tools/call with one form elicitation",
          baselineName: "the same call and elicitation directly to the upstream",
          note: "plus the engine's lint, record and re-validation of the answer",
        },
        withForm,
      ),
    ];
  } finally {
    await removeUpstream(db, "bench", { id: "benchup" });
    await upstream.close();
    await policy.close();
    server.closeAllConnections();
    server.close();
    if (previousStage === undefined) delete process.env.FLOW_NEW_STAGE;
    else process.env.FLOW_NEW_STAGE = previousStage;
  }
}

// Standalone: `npx tsx bench/gateway-forward.ts [--calls N]` on a fresh store (a new PostgreSQL
// database next to DATABASE_URL, else an embedded one), printing the rows as JSON.
async function main() {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const { createDatabaseNextTo } = await import("@/db/create-database");
  const { openStore } = await import("@/db/client");
  const { migrateStore } = await import("@/db/migrate");
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "eg-bench-gw-"));
  const calls = Number(process.argv[process.argv.indexOf("--calls") + 1]) || 100;
  const base = process.env.DATABASE_URL;
  const created = base ? await createDatabaseNextTo(base, "eg_bench") : undefined;
  const config = created
    ? ({ kind: "postgres", url: created.url, poolMax: 10 } as const)
    : ({ kind: "pglite", dataDir: path.join(process.env.DATA_DIR, "pglite") } as const);
  const store = await openStore(config, { purpose: "gateway bench" });
  try {
    await migrateStore(store, config);
    const rows = await gatewayForward(store, { calls, rounds: 3 });
    process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
  } finally {
    await store.close();
    await created?.drop();
  }
}

if (process.argv[1]?.endsWith("gateway-forward.ts")) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
