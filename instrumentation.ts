// Next.js calls register() once per server process before serving. The production server
// (lib/server/serve.ts) starts tracing itself before Next loads; this hook covers `next dev` and
// `next start`. Both go through startTracing, which registers at most once per process and
// nothing at all unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTracing } = await import("@/lib/telemetry/tracing");
  startTracing();
}
