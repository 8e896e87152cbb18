// Keys come from configuration: required in production (the error names the variable), generated
// only in development, and a configured value too short to be a key is refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, requiredSecret, secret, SECRETS } from "@/lib/config/secrets";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-secrets-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("secrets", () => {
  it.each(Object.keys(SECRETS) as Array<keyof typeof SECRETS>)("%s: production without it names the variable", (name) => {
    const env = { APP_ENV: "production", DATA_DIR: dataDir };
    if (name === "metricsToken") {
      expect(secret(name, env, { optional: true })).toBeUndefined();
      return;
    }
    expect(() => requiredSecret(name, env)).toThrow(new RegExp(SECRETS[name].env));
    expect(fs.existsSync(path.join(dataDir, "keys"))).toBe(false);
  });

  it("uses the configured value, and refuses a placeholder", () => {
    expect(requiredSecret("connectNonce", { APP_ENV: "production", CONNECT_NONCE_KEY: "k".repeat(40) })).toBe("k".repeat(40));
    expect(() => requiredSecret("connectNonce", { APP_ENV: "production", CONNECT_NONCE_KEY: "x" })).toThrow(ConfigError);
  });

  it("generates a development value once and keeps it", () => {
    const env = { APP_ENV: "development", DATA_DIR: dataDir };
    const first = requiredSecret("session", env);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(requiredSecret("session", env)).toBe(first);
    expect(fs.statSync(path.join(dataDir, "keys", "session.secret")).mode & 0o077).toBe(0);
  });
});
