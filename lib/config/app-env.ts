// APP_ENV decides which development conveniences are allowed (generated keys, the bundled
// identity provider, loopback HTTP origins). It defaults to development so that the demo runs
// without configuration; a deployment sets APP_ENV=production and must then configure keys.
import { type Env, readSetting } from "./schema";

export type AppEnv = "development" | "production";

export function appEnv(env: Env = process.env): AppEnv {
  return readSetting(env, "APP_ENV");
}

export function isProduction(env: Env = process.env): boolean {
  return appEnv(env) === "production";
}
