// Outgoing OAuth requests (issuer discovery, JWKS, the downstream token exchange) in a client span:
// the peer's host and the path, the method and the status. Never the query string, the body or a
// header: they carry codes, verifiers and client secrets. With tracing off this is plain fetch.
import { context, propagation, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { tracer, tracingOn } from "./tracing";

export async function tracedFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  if (!tracingOn()) return fetch(url, init);
  const target = new URL(url);
  const method = (init.method ?? "GET").toUpperCase();
  return tracer().startActiveSpan(
    `${method} ${target.host}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { "http.request.method": method, "server.address": target.hostname, "url.path": target.pathname },
    },
    async (span) => {
      try {
        // The trace continues at the peer when it speaks W3C trace context.
        const headers = new Headers(init.headers);
        propagation.inject(context.active(), headers, { set: (h, k, v) => h.set(k, v) });
        const res = await fetch(url, { ...init, headers });
        span.setAttribute("http.response.status_code", res.status);
        if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        return res;
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
