import type { Env } from "@/db/config";
import { appUrl } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";

export function connectConfig(env: Env = process.env) {
  const ttl = Number(env.CONNECT_TTL_SECONDS ?? 600);
  if (!Number.isFinite(ttl) || ttl <= 0) throw new Error("CONNECT_TTL_SECONDS must be a positive number");
  const base = appUrl(env);
  return {
    /** How long a connect link stays usable. Short by default. */
    ttlMs: ttl * 1000,
    connectUrl: (id: string) => `${base}/connect/${id}`,
    redirectUri: `${base}/connect/callback`,
    dev: !isProduction(env),
  };
}
