// Every request the app server answers: one server span (when tracing is on, continuing the
// caller's W3C `traceparent`) and the per-instance HTTP metrics, both labelled by the route
// template, the method and the status class; never the path, the query or a header value.
import type http from "node:http";
import { context, propagation, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { instanceMetrics } from "@/lib/metrics/instance-metrics";
import { methodLabel, routeLabel, statusClass } from "@/lib/metrics/route-label";
import { tracer, tracingOn } from "./tracing";

export function observeRequest<T>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  mcpPath: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = process.hrtime.bigint();
  const route = routeLabel((req.url ?? "/").split("?")[0]!, mcpPath);
  const method = methodLabel(req.method);
  const m = instanceMetrics();
  res.once("close", () => {
    const labels = { route, method, status: statusClass(res.statusCode) };
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  });
  if (!tracingOn()) return work();
  const parent = propagation.extract(context.active(), req.headers);
  return context.with(parent, () =>
    tracer().startActiveSpan(
      `${method} ${route}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": route } },
      (span) => {
        res.once("close", () => {
          span.setAttribute("http.response.status_code", res.statusCode);
          if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        });
        return work();
      },
    ),
  );
}
