// Small helpers that open a span only when tracing is on (tracing.ts), so the instrumented code
// reads the same either way and costs nothing extra when tracing is off.
import { SpanKind, SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";
import { tracer, tracingOn } from "./tracing";

/** Runs `work` inside a span named `name`; errors mark the span (by class name only) and rethrow. */
export async function inSpan<T>(name: string, attributes: Attributes, work: (span: Span | undefined) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!tracingOn()) return work(undefined);
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      // The error's class, never its message: messages can quote values.
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
      throw err;
    } finally {
      span.end();
    }
  });
}

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
