// MCP request metrics and the `mcp.request` span: the JSON-RPC method becomes a label (and a span
// attribute) only if it is one of the protocol's own names; tools, resources and arguments never do.
import type http from "node:http";
import { SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { tracer, tracingOn } from "@/lib/telemetry/tracing";
import { instanceMetrics } from "./instance-metrics";

const METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/list",
  "tasks/result",
  "tasks/cancel",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "server/discover",
]);

const noted = new WeakMap<http.ServerResponse, string>();

/** The bounded method label of a parsed MCP body: a response from the client, a batch, or a name from the list. */
export function mcpMethodLabel(body: unknown): string {
  if (Array.isArray(body)) return "batch";
  if (!body || typeof body !== "object") return "none";
  const method = Object.hasOwn(body, "method") ? (body as { method?: unknown }).method : undefined;
  if (method === undefined) return Object.hasOwn(body, "result") || Object.hasOwn(body, "error") ? "response" : "none";
  return typeof method === "string" && METHODS.has(method) ? method : "other";
}

/** Called by the MCP endpoint once it has parsed a request's body (after its guards). */
export function noteMcpBody(res: http.ServerResponse, body: unknown): void {
  const label = mcpMethodLabel(body);
  noted.set(res, label);
  trace.getActiveSpan()?.setAttribute("rpc.method", label);
}

function outcomeOf(status: number): string {
  if (status < 400) return "ok";
  if (status < 500) return "refused";
  return "error";
}

const VERB_LABELS: Record<string, string> = { GET: "stream", DELETE: "session_end" };

/** Measures one /api/mcp request from arrival to the end of its response (or its event stream). */
export function observeMcpRequest(req: http.IncomingMessage, res: http.ServerResponse, work: () => Promise<void>): Promise<void> {
  const started = process.hrtime.bigint();
  const verb = req.method ?? "";
  const run = (span?: Span) => {
    res.once("close", () => {
      const labels = { method: noted.get(res) ?? VERB_LABELS[verb] ?? "none", outcome: outcomeOf(res.statusCode) };
      const m = instanceMetrics();
      m.mcpRequests.inc(labels);
      m.mcpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (span) {
        span.setAttribute("http.response.status_code", res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
    return work();
  };
  if (!tracingOn()) return run();
  return tracer().startActiveSpan(
    "mcp.request",
    { attributes: { "rpc.system": "jsonrpc", "http.request.method": VERB_LABELS[verb] ? verb : verb === "POST" ? "POST" : "other" } },
    run,
  );
}
