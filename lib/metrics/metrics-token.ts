// The bearer token for /api/metrics: METRICS_TOKEN, or a generated one in development.
import { timingSafeEqual } from "node:crypto";
import { secret } from "@/lib/config/secrets";

export type MetricsAccess = "ok" | "disabled" | "unauthorized";

export function metricsAccess(authorization: string | null): MetricsAccess {
  // Optional in production: without METRICS_TOKEN the endpoint is off.
  const expected = secret("metricsToken", process.env, { optional: true });
  if (!expected) return "disabled";
  const given = Buffer.from(authorization ?? "");
  const want = Buffer.from(`Bearer ${expected}`);
  return given.length === want.length && timingSafeEqual(given, want) ? "ok" : "unauthorized";
}
