// The modern-era row beside "elicitation overhead": the same form elicitation as a 2026-07-28
// multi-round-trip exchange. The official v2 client pinned to 2026-07-28 calls generate_report;
// the server answers input_required with a sealed requestState; the client answers the form at once
// and retries. Against (a) this server's real endpoint (bearer, flow policy, lint, record and event
// writes, sealing, the state gate, validation) and (b) a bare SDK v2 createMcpHandler server doing
// the same round trip with nothing else. Alternating rounds, as the legacy row.
import http from "node:http";
import type net from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { acceptedContent, createMcpHandler, fromJsonSchema, inputRequired, McpServer } from "@modelcontextprotocol/server";
import type { Store } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { cachedPolicy } from "@/lib/policy/policy-source";
import { createAppRoutes } from "@/lib/server/app-routes";
import { reportParameters } from "@/lib/workflows/generate-report";
import { percentile, round, type BenchResult } from "./stats";

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
        return inputRequired({ inputRequests: { [reportParameters.key]: inputRequired.elicit({ mode: "form", message: reportParameters.message, requestedSchema: reportParameters.schema as never }) }, requestState: "bare" });
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
    const response = await handler.fetch(new Request(`http://localhost${req.url ?? "/"}`, { method: req.method, headers, body: req.method === "POST" ? Buffer.concat(chunks) : undefined }));
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

async function modernClient(url: string, token?: string) {
  const c = new Client({ name: "bench-modern", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: ANSWER }));
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
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
  const policy = await cachedPolicy(store);
  const routes = createAppRoutes(async () => store.db, policy);
  server.on("request", (req, res) => void routes(req, res).then((done) => (done ? undefined : res.writeHead(404).end())));
  const bare = await bareModernServer();
  const token = await mintMcpAccessToken(createDevProvider(), { subject: "user-alice-1001", tenant: "acme", ttlSeconds: 3600, mcpResource: `http://localhost:${port}/api/mcp` });
  const oc = await modernClient(`http://localhost:${port}`, token);
  const bc = await modernClient(bare.url);
  await timeCalls(oc, 20);
  await timeCalls(bc, 20);
  const oursT: number[] = [];
  const bareT: number[] = [];
  let oursMs = 0;
  let bareMs = 0;
  for (let r = 0; r < opts.rounds; r++) {
    let t = performance.now();
    oursT.push(...(await timeCalls(oc, opts.calls)));
    oursMs += performance.now() - t;
    t = performance.now();
    bareT.push(...(await timeCalls(bc, opts.calls)));
    bareMs += performance.now() - t;
  }
  await oc.close();
  await bc.close();
  await bare.close();
  await policy.close();
  server.closeAllConnections();
  server.close();
  const n = opts.calls * opts.rounds;
  const p50 = [percentile(oursT, 50), percentile(bareT, 50)] as const;
  const p99 = [percentile(oursT, 99), percentile(bareT, 99)] as const;
  const tput = [(n / oursMs) * 1000, (n / bareMs) * 1000] as const;
  const base = {
    name: "elicitation overhead (2026-07-28)",
    baselineName: "bare SDK v2 createMcpHandler, same input_required round trip",
    note: "two HTTP requests per call in this revision; ours adds the record and outcome writes, the tenant and cool-down reads, sealing and opening the requestState and the state gate's record read; the bare server does no I/O",
  };
  return [
    { ...base, metric: "p50 latency", unit: "ms", value: round(p50[0]), baseline: round(p50[1]), ratio: round(p50[0] / p50[1]), target: "<= 1.2x", holds: p50[0] / p50[1] <= 1.2 },
    { ...base, metric: "p99 latency", unit: "ms", value: round(p99[0]), baseline: round(p99[1]), ratio: round(p99[0] / p99[1]), target: "<= 1.5x", holds: p99[0] / p99[1] <= 1.5 },
    { ...base, metric: "throughput", unit: "calls/s", value: round(tput[0], 1), baseline: round(tput[1], 1), ratio: round(tput[0] / tput[1]), target: ">= 0.8x", holds: tput[0] / tput[1] >= 0.8 },
  ];
}
