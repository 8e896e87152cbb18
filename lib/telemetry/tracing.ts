// OpenTelemetry tracing, off unless configured. With OTEL_EXPORTER_OTLP_ENDPOINT set (or an
// exporter handed in, as the tests do) a tracer provider is registered with the W3C trace-context
// propagator and an AsyncLocalStorage context, and spans go out over OTLP/HTTP in batches. Without
// it nothing is registered: `tracingOn()` is false and every helper here skips span work entirely,
// so an unconfigured deployment pays one boolean check per instrumented call.
//
// Span attributes are value-free by the same rule as logs: route templates, method names, enum
// values, status codes and counts. Never a header, a query string, a claim, a form value.
import { trace, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-node";

export const TRACER_NAME = "elicitation-gateway";

const holder = globalThis as typeof globalThis & { __tracing?: { provider: NodeTracerProvider } };

export interface TracingOptions {
  /** Tests: spans go here at once (SimpleSpanProcessor) instead of over OTLP in batches. */
  exporter?: SpanExporter;
  env?: Record<string, string | undefined>;
}

/** True when a tracer provider was registered by startTracing (in this process, any bundle). */
export function tracingOn(): boolean {
  return holder.__tracing !== undefined;
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Registers tracing once per process when configured; returns whether it is on. The OTLP
 * exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers, timeout).
 */
export function startTracing(options: TracingOptions = {}): boolean {
  if (holder.__tracing) return true;
  const env = options.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (!options.exporter && !endpoint) return false;
  if (env.OTEL_SDK_DISABLED === "true") return false;
  const processor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME?.trim() || "elicitation-gateway" }),
    spanProcessors: [processor],
  });
  provider.register();
  holder.__tracing = { provider };
  return true;
}

/** Flushes and stops tracing (the server's shutdown, the end of a test). */
export async function stopTracing(): Promise<void> {
  const t = holder.__tracing;
  if (!t) return;
  holder.__tracing = undefined;
  await t.provider.shutdown();
  trace.disable();
}
