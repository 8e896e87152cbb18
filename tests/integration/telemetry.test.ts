// Per-instance metrics and OpenTelemetry traces over real HTTP: the app's routes behind the same
// request observer as the production server, the SDK's real MCP client, real PostgreSQL, and the
// spans read back from an in-memory exporter. Canary values are planted in a form answer, a path,
// a query string, a JSON-RPC method name and a header; none may appear in a span or a metric.
import http from "node:http";
import type net from "node:net";
import { Writable } from "node:stream";
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { seedDemo } from "@/lib/demo/seed";
import { insertRecord, transition } from "@/lib/elicitation/records";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { createLogger } from "@/lib/log/logger";
import { instanceMetricsText, watchPool } from "@/lib/metrics/instance-metrics";
import { createAppRoutes } from "@/lib/server/app-routes";
import { observeRequest } from "@/lib/telemetry/http-request";
import { startTracing, stopTracing, tracer } from "@/lib/telemetry/tracing";
import { connectClient } from "../helpers/mcp-client";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

const CANARY = "CANARY-obs-9f1e2d3c";
const exporter = new InMemorySpanExporter();
let t: TestStore;
let server: http.Server;
let routes: ReturnType<typeof createAppRoutes>;
let base: string;

beforeAll(async () => {
  expect(startTracing({ exporter })).toBe(true);
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 5 });
  watchPool(t.store.pool);
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  base = `http://localhost:${port}`;
  Object.assign(process.env, { APP_URL: base, PORT: String(port), APP_ENV: "development" });
  delete process.env.OIDC_ISSUER;
  routes = createAppRoutes(async () => t.store.db);
  server.on("request", (req, res) => {
    void observeRequest(req, res, "/api/mcp", () => routes(req, res)).then((done) => {
      if (!done) res.writeHead(404).end();
    });
  });
});
afterAll(async () => {
  routes?.close?.();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await stopTracing();
  await t?.dispose();
});

const token = (subject: string) =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant: "acme", ttlSeconds: 600, mcpResource: `${base}/api/mcp` });

/** One metric sample's value (0 when absent), by its exact label set. */
function sample(text: string, name: string, labels: string): number {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line ? Number(line.split(" ").pop()) : 0;
}

const everything = (spans: ReadableSpan[]) =>
  JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      events: s.events,
      status: s.status,
      links: s.links,
      resource: s.resource.attributes,
    })),
  );

describe("a form elicitation, traced and counted", () => {
  it("records one trace from the request to the database with value-free attributes, and counts it", async () => {
    const before = await instanceMetricsText();
    exporter.reset();
    const subject = `user-obs-${Date.now()}`;
    const c = await connectClient(`${base}/api/mcp`, await token(subject), {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({
        action: "accept",
        content: { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31", title: CANARY },
      }),
    });
    const liveDuring = sample(await instanceMetricsText(), "mcp_sessions_live", "");
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "completed" });
    await c.close();
    // A request's span ends, and its count is taken, when its response closes on the server: a
    // moment after the client has read it.
    const toolCall = (spans: ReadableSpan[]) => spans.find((s) => s.name === "mcp.request" && s.attributes["rpc.method"] === "tools/call");
    await expect.poll(() => toolCall(exporter.getFinishedSpans())).toBeDefined();
    await expect
      .poll(
        async () =>
          sample(await instanceMetricsText(), "mcp_requests_total", 'method="tools/call",outcome="ok"') -
          sample(before, "mcp_requests_total", 'method="tools/call",outcome="ok"'),
      )
      .toBe(1);
    const spans = exporter.getFinishedSpans();

    // The tools/call: a server span, its mcp.request child, the engine's decision and the
    // database calls, all in one trace.
    const call = toolCall(spans);
    expect(call).toBeDefined();
    const traceId = call!.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const server = inTrace.find((s) => s.name === "POST /api/mcp");
    expect(server?.attributes).toMatchObject({ "http.route": "/api/mcp", "http.request.method": "POST", "http.response.status_code": 200 });
    expect(call!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
    const decide = inTrace.find((s) => s.name === "elicitation.decide");
    expect(decide?.attributes).toEqual({ "elicitation.need_kind": "field", "elicitation.route": "form" });
    const dbSpans = inTrace.filter((s) => s.name === "db.query" || s.name === "db.transaction");
    expect(dbSpans.length).toBeGreaterThan(0);
    expect(dbSpans.every((s) => s.attributes["db.system.name"] === "postgresql")).toBe(true);
    // The record is written by one `with ... insert` statement; reads are selects.
    expect([...new Set(dbSpans.map((s) => s.attributes["db.operation.name"]))]).toEqual(expect.arrayContaining(["select", "with"]));

    // The first request verified the bearer: issuer discovery and the JWKS were outgoing
    // requests in client spans with host and path only.
    const outgoing = spans.filter((s) => s.attributes["url.path"] !== undefined);
    expect(outgoing.map((s) => s.attributes["url.path"])).toEqual(expect.arrayContaining(["/oidc/.well-known/openid-configuration"]));

    // Nothing the person typed, nor who they are, nor the token, in any span.
    const text = everything(spans);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain(subject);
    expect(text).not.toContain("acme");

    const after = await instanceMetricsText();
    expect(liveDuring).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, "mcp_requests_total", 'method="tools/call",outcome="ok"') -
        sample(before, "mcp_requests_total", 'method="tools/call",outcome="ok"'),
    ).toBe(1);
    expect(
      sample(after, "mcp_requests_total", 'method="initialize",outcome="ok"') -
        sample(before, "mcp_requests_total", 'method="initialize",outcome="ok"'),
    ).toBe(1);
    expect(sample(after, "elicitations_started_total", 'mode="form"') - sample(before, "elicitations_started_total", 'mode="form"')).toBe(
      1,
    );
    expect(
      sample(after, "elicitations_finished_total", 'mode="form",outcome="completed"') -
        sample(before, "elicitations_finished_total", 'mode="form",outcome="completed"'),
    ).toBe(1);
    expect(sample(after, "http_server_requests_total", 'route="/api/mcp",method="POST",status="2xx"')).toBeGreaterThanOrEqual(3);
    expect(after).toMatch(/^mcp_request_duration_seconds_bucket\{le="\+Inf",method="tools\/call",outcome="ok"\} [1-9]/m);
    expect(after).toMatch(/^db_pool_connections_max 8$/m);
    expect(after).toMatch(/^process_resident_memory_bytes [1-9]/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(after).not.toContain(CANARY);
    expect(after).not.toContain(subject);
  });
});

describe("elicitations finished, whichever way they end", () => {
  it("counts a refusal before sending, a revocation in bulk, and a guarded transition that did not happen", async () => {
    const before = await instanceMetricsText();
    const draft = (mode: "form" | "url") => recordDraft({ mode, subject: "s-count" });
    const refused = draft("form");
    await insertRecord(t.store.db, refused, "not_sent");
    const pending = [draft("url"), draft("url"), draft("form")];
    for (const d of pending) await insertRecord(t.store.db, d, "sent");
    expect(await revokeRecords(t.store.db, { type: "operator", id: "op" }, { ids: pending.map((d) => d.id) }, "drill")).toHaveLength(3);
    // Already revoked: the guarded transition moves nothing and counts nothing.
    expect(await transition(t.store.db, pending[2]!.id, { move: "settleForm", to: "completed" })).toBe(false);
    const after = await instanceMetricsText();
    const delta = (labels: string, name = "elicitations_finished_total") => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('mode="form"', "elicitations_started_total")).toBe(2);
    expect(delta('mode="url"', "elicitations_started_total")).toBe(2);
    expect(delta('mode="form",outcome="not_sent"')).toBe(1);
    expect(delta('mode="url",outcome="revoked"')).toBe(2);
    expect(delta('mode="form",outcome="revoked"')).toBe(1);
    expect(delta('mode="form",outcome="completed"')).toBe(0);
  });
});

describe("what an attacker controls stays out of labels and spans", () => {
  it("a canary in the path, the query, a header and a JSON-RPC method name reaches no label or attribute", async () => {
    exporter.reset();
    await fetch(`${base}/connect/${CANARY}?code=${CANARY}&state=${CANARY}`, { headers: { "x-canary": CANARY, cookie: `c=${CANARY}` } });
    await fetch(`${base}/${CANARY}/deep/path?x=${CANARY}`);
    const res = await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await token("user-obs-attacker")}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: `${CANARY}/method`, params: { [CANARY]: CANARY } }),
    });
    expect(res.status).toBe(400);
    // Prototype keys in the body are not a method either.
    await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await token("user-obs-attacker")}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: '{"__proto__":{"method":"tools/call"},"jsonrpc":"2.0","id":2}',
    });
    await expect
      .poll(async () => sample(await instanceMetricsText(), "mcp_requests_total", 'method="other",outcome="refused"'))
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => exporter.getFinishedSpans().filter((s) => s.attributes["http.route"] === "other").length)
      .toBeGreaterThanOrEqual(1);
    const metrics = await instanceMetricsText();
    const spans = exporter.getFinishedSpans();
    expect(metrics).not.toContain(CANARY);
    expect(everything(spans)).not.toContain(CANARY);
    expect(spans.map((s) => s.attributes["http.route"]).filter(Boolean)).toEqual(expect.arrayContaining(["/connect/[id]", "other"]));
    expect(metrics).toMatch(/^mcp_requests_total\{method="none",outcome="refused"\} [1-9]/m);
  });

  it("a forged or unsigned token is refused and counted as refused, without its text anywhere", async () => {
    exporter.reset();
    const refusedBefore = sample(await instanceMetricsText(), "mcp_requests_total", 'method="none",outcome="refused"');
    const forged = `eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.${Buffer.from(JSON.stringify({ sub: CANARY, tenant: CANARY })).toString("base64url")}.`;
    const res = await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${forged}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    await res.text();
    // Refused before its body was read: counted without a method, and it opened no session.
    await expect
      .poll(async () => sample(await instanceMetricsText(), "mcp_requests_total", 'method="none",outcome="refused"'))
      .toBe(refusedBefore + 1);
    const sessions = rowsOf<{ n: number }>(
      await t.store.db.execute(sql`select count(*)::int as n from mcp_sessions where subject = ${CANARY}`),
    );
    expect(sessions[0]?.n).toBe(0);
    expect(everything(exporter.getFinishedSpans())).not.toContain(CANARY);
    expect(await instanceMetricsText()).not.toContain(CANARY);
  });
});

describe("trace context", () => {
  it("continues the caller's W3C traceparent", async () => {
    exporter.reset();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const res = await fetch(`${base}/.well-known/oauth-protected-resource`, { headers: { traceparent: `00-${traceId}-${parent}-01` } });
    expect(res.status).toBe(200);
    await res.text();
    const metadataSpan = () =>
      exporter.getFinishedSpans().find((s) => s.attributes["http.route"] === "/.well-known/oauth-protected-resource");
    await expect.poll(metadataSpan).toBeDefined();
    const span = metadataSpan();
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parent);
  });

  it("puts the active trace and span ids in every log line written inside a span, and none outside", async () => {
    const lines: string[] = [];
    const log = createLogger(new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    log.info({ event: "outside" }, "no span");
    const span = tracer().startSpan("test.log");
    context.with(trace.setSpan(context.active(), span), () => log.info({ event: "inside" }, "in a span"));
    span.end();
    const [outside, inside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(outside).not.toHaveProperty("trace_id");
    expect(inside).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
  });
});
