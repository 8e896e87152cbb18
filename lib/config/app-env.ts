import type { Env } from "@/db/config";

// APP_ENV decides which development conveniences are allowed (generated keys, the bundled
// identity provider, loopback HTTP origins). It defaults to development so that the demo runs
// without configuration; a deployment sets APP_ENV=production and must then configure keys.
export type AppEnv = "development" | "production";

export function appEnv(env: Env = process.env): AppEnv {
  const v = env.APP_ENV?.trim() || "development";
  if (v !== "development" && v !== "production") throw new Error(`APP_ENV must be development or production, not "${v}"`);
  return v;
}

export function isProduction(env: Env = process.env): boolean {
  return appEnv(env) === "production";
}
