// The development provider's signing keys and cookie secret, persisted in DATA_DIR/keys so that a
// restart, the CLI (`ctl token`) and the app server all sign and verify with the same keys.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDirFromEnv, type Env } from "@/db/config";
import { devSecret } from "@/lib/auth/oidc-config";

export interface DevJwks {
  keys: Array<Record<string, unknown>>;
}

export function devJwks(env: Env = process.env, name = "dev-oidc"): DevJwks {
  const file = path.join(dataDirFromEnv(env), "keys", `${name}-jwks.json`);
  if (!fs.existsSync(file)) {
    const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: "jwk" }), kid: crypto.randomBytes(8).toString("hex"), alg: "RS256", use: "sig" };
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, JSON.stringify({ keys: [jwk] }), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as DevJwks;
}

export function devCookieKeys(env: Env = process.env, name = "dev-oidc"): string[] {
  return [devSecret(`${name}-cookies`, env)];
}
