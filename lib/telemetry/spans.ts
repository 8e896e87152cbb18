// Small helpers that open a span only when tracing is on (tracing.ts), so the instrumented code
// reads the same either way and costs nothing extra when tracing is off.
import { SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";
import { tracer, tracingOn } from "./tracing";

/** The synchronous form, for decisions that do no I/O (the engine's router). */
export function inSpanSync<T>(name: string, attributes: Attributes, work: (span: Span | undefined) => T): T {
  if (!tracingOn()) return work(undefined);
  return tracer().startActiveSpan(name, { attributes }, (span) => {
    try {
      return work(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
      throw err;
    } finally {
      span.end();
    }
  });
}
