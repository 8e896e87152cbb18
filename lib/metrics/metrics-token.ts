// The bearer token for /api/metrics: METRICS_TOKEN, or a generated one in development.
import { timingSafeEqual } from "node:crypto";
import { devSecret } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";

export type MetricsAccess = "ok" | "disabled" | "unauthorized";

export function metricsAccess(authorization: string | null): MetricsAccess {
  const expected = process.env.METRICS_TOKEN?.trim() || (isProduction() ? undefined : devSecret("metrics-token"));
  if (!expected) return "disabled";
  const given = Buffer.from(authorization ?? "");
  const want = Buffer.from(`Bearer ${expected}`);
  return given.length === want.length && timingSafeEqual(given, want) ? "ok" : "unauthorized";
}
