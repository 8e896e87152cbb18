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
import { ConfigError } from "./config-error";
import { readSetting } from "./schema";
import { SECRETS, type SecretName, type SecretSpec } from "./secret-specs";

export { SECRETS, type SecretName, type SecretSpec } from "./secret-specs";
export { ConfigError } from "./config-error";

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
  // The settings table checks the length (a placeholder such as "x" is refused, naming the variable).
  const configured = readSetting(env, spec.env as (typeof SECRETS)[SecretName]["env"]);
  if (configured) return configured;
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
