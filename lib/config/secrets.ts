// Every key the app uses comes from configuration. In production each is required and a missing
// one stops the process with the variable's name; only in development is a random value generated
// once into DATA_DIR/keys, so that `npm run demo` needs no set-up. Two instances that must agree
// (a session cookie minted by one and read by the other, a connect nonce derived by one and checked
// by the other) therefore share the configured value, never a file on a shared volume.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDirFromEnv, type Env } from "@/db/config";
import { isProduction } from "./app-env";

export interface SecretSpec {
  /** The environment variable that holds it. */
  env: string;
  /** The file name under DATA_DIR/keys a development value is generated into. */
  devFile: string;
  /** What it protects, for the error message and the README's table. */
  purpose: string;
  /** Minimum length of a configured value (characters), so a placeholder like "x" is refused. */
  minLength: number;
}

/** The one list of the app's symmetric secrets (the vault key and the signing key have their own formats). */
export const SECRETS = {
  session: { env: "SESSION_SECRET", devFile: "session", purpose: "encrypts the console's session cookie", minLength: 32 },
  connectNonce: { env: "CONNECT_NONCE_KEY", devFile: "connect-nonce", purpose: "derives the URL-mode connect nonce (HMAC key)", minLength: 32 },
  metricsToken: { env: "METRICS_TOKEN", devFile: "metrics-token", purpose: "bearer token for /api/metrics (unset in production: the endpoint is off)", minLength: 16 },
  devConsoleClient: { env: "DEV_IDP_CONSOLE_CLIENT_SECRET", devFile: "dev-console-client", purpose: "the console's client secret at the bundled development identity provider", minLength: 16 },
  demoDownstreamClient: { env: "DEMO_DOWNSTREAM_CLIENT_SECRET", devFile: "downstream-client", purpose: "this app's client secret at the bundled demo downstream provider", minLength: 16 },
} as const satisfies Record<string, SecretSpec>;

export type SecretName = keyof typeof SECRETS;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A random secret generated once into DATA_DIR/keys, for development only. */
export function devSecret(name: string, env: Env = process.env): string {
  const file = path.join(dataDirFromEnv(env), "keys", `${name}.secret`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * The configured value of a secret; in development a generated one when it is not configured.
 * Production without it throws, naming the variable (or returns undefined when `optional`).
 */
export function secret(name: SecretName, env: Env = process.env, options: { optional?: boolean } = {}): string | undefined {
  const spec: SecretSpec = SECRETS[name];
  const configured = env[spec.env]?.trim();
  if (configured) {
    if (configured.length < spec.minLength) throw new ConfigError(`${spec.env} is too short: use at least ${spec.minLength} random characters (it ${spec.purpose})`);
    return configured;
  }
  if (isProduction(env)) {
    if (options.optional) return undefined;
    throw new ConfigError(`APP_ENV=production needs ${spec.env} (it ${spec.purpose}); generated keys are for development only`);
  }
  return devSecret(spec.devFile, env);
}

/** As secret(), for secrets that are never optional. */
export function requiredSecret(name: SecretName, env: Env = process.env): string {
  const value = secret(name, env);
  if (value === undefined) throw new ConfigError(`${SECRETS[name].env} is required`);
  return value;
}
