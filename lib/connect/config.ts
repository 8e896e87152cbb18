import type { Env } from "@/db/config";
import { appUrl } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";
import { readSetting } from "@/lib/config/schema";

export function connectConfig(env: Env = process.env) {
  const ttl = readSetting(env, "CONNECT_TTL_SECONDS");
  const base = appUrl(env);
  return {
    /** How long a connect link stays usable. Short by default. */
    ttlMs: ttl * 1000,
    connectUrl: (id: string) => `${base}/connect/${id}`,
    redirectUri: `${base}/connect/callback`,
    dev: !isProduction(env),
  };
}
