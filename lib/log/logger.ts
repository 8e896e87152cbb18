// Structured logs, redacted by construction: any field whose name announces a value, a token or a
// secret is censored by pino before it is serialised, at any nesting depth we list. Callers log
// names, keywords, counts and ids; the redaction is the net under that rule, not the rule itself.
import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino from "pino";
import { readSetting } from "@/lib/config/schema";

const SENSITIVE = [
  "value",
  "values",
  "content",
  "answer",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "idToken",
  "secret",
  "password",
  "authorization",
  "cookie",
  "code",
  "code_verifier",
  "state",
  "nonce",
];

export const REDACT_PATHS = [
  ...SENSITIVE,
  ...SENSITIVE.map((k) => `*.${k}`),
  ...SENSITIVE.map((k) => `*.*.${k}`),
  'req.headers["authorization"]',
  'req.headers["cookie"]',
];

/** The active span's ids, so a log line can be found from its trace (empty when tracing is off). */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

export function createLogger(destination?: pino.DestinationStream) {
  return pino(
    {
      level: readSetting(process.env, "LOG_LEVEL"),
      base: { service: "elicitation-gateway" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      mixin: traceFields,
    },
    destination ?? pino.destination(2),
  );
}

export const logger = createLogger();
