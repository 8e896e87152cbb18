import { getDb } from "@/db";
import { metricsAccess } from "@/lib/metrics/metrics-token";
import { prometheusText } from "@/lib/metrics/prometheus";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const access = metricsAccess(req.headers.get("authorization"));
  if (access === "disabled") return new Response("metrics are disabled: set METRICS_TOKEN", { status: 404 });
  if (access === "unauthorized") return new Response("unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  return new Response(await prometheusText(await getDb()), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
}
