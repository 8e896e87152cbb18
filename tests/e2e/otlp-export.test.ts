// The production server (`ctl serve` on the build) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a
// real OTLP/HTTP receiver in this test: a form elicitation answered with a canary arrives as one
// trace (server span, mcp.request, the engine's decision, database calls), no span carries the
// canary, and the instance's log lines written during the request carry that trace's ids.
import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, prepareDeployment, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { runCli } from "../helpers/cli";
import { connectClient } from "../helpers/mcp-client";

const CANARY = "CANARY-otlp-5d4c3b2a";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpExport {
  resourceSpans: Array<{ resource?: unknown; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

let receiver: http.Server;
const bodies: string[] = [];
let dep: Deployment;
let app: Instance;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      if (req.url === "/v1/traces") bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const collector = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
  const port = await freePort();
  dep = await prepareDeployment(`http://localhost:${port}`, { postgres: process.env.DATABASE_URL || undefined });
  // Short batch delay so the test does not wait five seconds for the exporter's default.
  app = await startInstance(dep, {
    port,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector, OTEL_BSP_SCHEDULE_DELAY: "200", OTEL_SERVICE_NAME: "gateway-e2e", LOG_LEVEL: "info" },
  });
});
afterAll(async () => {
  await app?.stop();
  await dep?.dispose();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const spansOf = () =>
  bodies.flatMap((b) => (JSON.parse(b) as OtlpExport).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

describe("OTLP export from the production server", () => {
  it("exports one value-free trace per request, and the log lines carry its ids", async () => {
    const minted = await runCli(["token", "--subject", "user-alice-1001", "--json"], {
      ...dep.secrets,
      DATA_DIR: dep.dataDir,
      DATABASE_URL: dep.databaseUrl ?? "",
      APP_URL: app.baseUrl,
      APP_ENV: "development",
    });
    expect(minted.code).toBe(0);
    const { access_token: token } = JSON.parse(minted.stdout) as { access_token: string };
    const c = await connectClient(`${app.baseUrl}/api/mcp`, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({
        action: "accept",
        content: { environment: "staging", format: "csv", from: "2026-10-01", to: "2026-10-31", title: CANARY },
      }),
    });
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "completed" });
    await c.close();

    const toolCall = () => spansOf().find((s) => s.name === "mcp.request" && attr(s, "rpc.method") === "tools/call");
    await expect.poll(toolCall, { timeout: 30_000 }).toBeDefined();
    const traceId = toolCall()!.traceId;
    await expect
      .poll(
        () =>
          spansOf()
            .filter((s) => s.traceId === traceId)
            .map((s) => s.name),
        { timeout: 30_000 },
      )
      .toEqual(expect.arrayContaining(["POST /api/mcp", "mcp.request", "elicitation.decide", "db.query"]));
    expect(bodies.join("\n")).not.toContain(CANARY);
    expect(bodies.join("\n")).toContain("gateway-e2e");
    // The engine's "elicitation routed" line was written inside that trace.
    const routed = app
      .output()
      .split("\n")
      .filter((l) => l.includes('"event":"elicitation.decided"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(routed.some((l) => l.trace_id === traceId && typeof l.span_id === "string")).toBe(true);
  });
});
