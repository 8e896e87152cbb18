// The modern-era row beside "elicitation overhead": the same form elicitation as a 2026-07-28
// multi-round-trip exchange. The official v2 client pinned to 2026-07-28 calls generate_report;
// the server answers input_required with a sealed requestState; the client answers the form at once
// and retries. Against (a) this server's real endpoint (bearer, flow policy, lint, record and event
// writes, sealing, the state gate, validation) and (b) a bare SDK v2 createMcpHandler server doing
// the same round trip with nothing else. Alternating rounds, as the legacy row.
import { alternate, overheadRows } from "./overhead-compare";
import http from "node:http";
import type net from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { acceptedContent, createMcpHandler, fromJsonSchema, inputRequired, McpServer } from "@modelcontextprotocol/server";
import type { Store } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { cachedPolicy } from "@/lib/policy/policy-source";
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

function bareModernServer() {
  const handler = createMcpHandler(
    () => {
      const s = new McpServer({ name: "bare-modern", version: "1" });
      s.registerTool("generate_report", { inputSchema: fromJsonSchema({ type: "object" }) }, async (_args, ctx) => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, reportParameters.key);
        if (answer) return { content: [{ type: "text", text: "accept" }] };
        return inputRequired({
          inputRequests: {
            [reportParameters.key]: inputRequired.elicit({
              mode: "form",
              message: reportParameters.message,
              requestedSchema: reportParameters.schema as never,
            }),
          },
          requestState: "bare",
        });
      });
      return s;
    },
    { legacy: "reject" },
  );
  return listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "content-length") headers.set(k, v);
    const response = await handler.fetch(
      new Request(`http://localhost${req.url ?? "/"}`, {
        method: req.method,
        headers,
        body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

async function modernClient(url: string, token?: string) {
  const c = new Client(
    { name: "bench-modern", version: "1" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: ANSWER }));
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

export async function elicitationOverheadModern(store: Store, opts: { calls: number; rounds: number }): Promise<BenchResult[]> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  process.env.APP_URL = `http://localhost:${port}`;
  applyBenchAbuseLimits();
  const policy = await cachedPolicy(store);
  const routes = createAppRoutes(async () => store.db, policy);
  server.on("request", (req, res) => void routes(req, res).then((done) => (done ? undefined : res.writeHead(404).end())));
  const bare = await bareModernServer();
  const token = await mintMcpAccessToken(createDevProvider(), {
    subject: "user-alice-1001",
    tenant: "acme",
    ttlSeconds: 3600,
    mcpResource: `http://localhost:${port}/api/mcp`,
  });
  const oc = await modernClient(`http://localhost:${port}`, token);
  const bc = await modernClient(bare.url);
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
    name: "elicitation overhead (2026-07-28)",
    baselineName: "bare SDK v2 createMcpHandler, same input_required round trip",
    note: "two HTTP requests per call in this revision; ours adds the record and outcome writes, the tenant and cool-down reads, sealing and opening the requestState and the state gate's record read; the bare server does no I/O",
  };
  return overheadRows(base, measured);
}
