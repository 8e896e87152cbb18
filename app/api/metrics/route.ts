import { timingSafeEqual } from "node:crypto";
import { getDb } from "@/db";
import { devSecret } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";
import { prometheusText } from "@/lib/metrics/prometheus";

export const dynamic = "force-dynamic";

function expectedToken(): string | undefined {
  const configured = process.env.METRICS_TOKEN?.trim();
  if (configured) return configured;
  return isProduction() ? undefined : devSecret("metrics-token");
}

export async function GET(req: Request) {
  const expected = expectedToken();
  if (!expected) return new Response("metrics are disabled: set METRICS_TOKEN", { status: 404 });
  const given = Buffer.from(req.headers.get("authorization") ?? "");
  const want = Buffer.from(`Bearer ${expected}`);
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    return new Response("unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  }
  return new Response(await prometheusText(await getDb()), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
}
