import { getDb } from "@/db";
import { instanceMetricsText } from "@/lib/metrics/instance-metrics";
import { metricsAccess } from "@/lib/metrics/metrics-token";
import { prometheusText } from "@/lib/metrics/prometheus";
import { asStoreFamily } from "@/lib/metrics/store-family";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const access = metricsAccess(req.headers.get("authorization"));
  if (access === "disabled") return new Response("metrics are disabled: set METRICS_TOKEN", { status: 404 });
  if (access === "unauthorized")
    return new Response("unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  // This instance's own figures, then the store-wide aggregates under their own `store_` family.
  const [instance, store] = await Promise.all([instanceMetricsText(), prometheusText(await getDb())]);
  return new Response(`${instance}\n${asStoreFamily(store)}`, {
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
}
