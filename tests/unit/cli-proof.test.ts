// The operator proof's rules, without a provider: which issuer and client id the CLI uses, and
// which ID tokens prove an operator (signature, issuer, audience, azp, expiry, freshness).
import crypto from "node:crypto";
import { createLocalJWKSet, exportJWK, SignJWT, type JWK, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { cliAuthSettings, OperatorProofError, verifyOperatorIdToken, type CliAuthSettings } from "@/lib/auth/cli-proof";

const base = { APP_ENV: "development", SESSION_SECRET: "s".repeat(32), OIDC_CLIENT_ID: "app", OIDC_CLIENT_SECRET: "secret" };

describe("cliAuthSettings", () => {
  it("uses OIDC_CLI_CLIENT_ID with an external issuer, and says so when it is missing", () => {
    expect(() => cliAuthSettings({ ...base, OIDC_ISSUER: "https://id.example.com" })).toThrow(/OIDC_CLI_CLIENT_ID/);
    expect(cliAuthSettings({ ...base, OIDC_ISSUER: "https://id.example.com/", OIDC_CLI_CLIENT_ID: "gateway-ctl" })).toEqual({
      issuer: "https://id.example.com",
      clientId: "gateway-ctl",
      freshSeconds: 900,
      devProvider: false,
    });
  });

  it("validates CTL_FRESH_LOGIN_SECONDS", () => {
    const ext = { ...base, OIDC_ISSUER: "https://id.example.com", OIDC_CLI_CLIENT_ID: "c" };
    expect(cliAuthSettings({ ...ext, CTL_FRESH_LOGIN_SECONDS: "60" }).freshSeconds).toBe(60);
    for (const bad of ["0", "-5", "15m", "1e3", "99999999"])
      expect(() => cliAuthSettings({ ...ext, CTL_FRESH_LOGIN_SECONDS: bad }), bad).toThrow(/CTL_FRESH_LOGIN_SECONDS/);
  });
});

describe("verifyOperatorIdToken", () => {
  const settings: CliAuthSettings = { issuer: "https://id.example.com", clientId: "gateway-ctl", freshSeconds: 900, devProvider: false };
  const pair = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const other = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const now = new Date("2026-11-30T12:00:00Z");
  const t = Math.floor(now.getTime() / 1000);
  const keysFor = async (k: crypto.KeyObject) =>
    createLocalJWKSet({ keys: [{ ...((await exportJWK(k)) as JWK), kid: "k1", alg: "RS256" }] });
  const sign = (claims: JWTPayload, key = pair.privateKey) =>
    new SignJWT({ iss: settings.issuer, aud: settings.clientId, sub: "op-1", iat: t - 10, exp: t + 600, ...claims })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .sign(key);

  it("accepts a fresh token from the issuer for the CLI client", async () => {
    const proven = await verifyOperatorIdToken(await sign({}), settings, await keysFor(pair.publicKey), now);
    expect(proven.subject).toBe("op-1");
  });

  it.each([
    ["another key", {}, "other"],
    ["another issuer", { iss: "https://evil.example" }, "own"],
    ["another audience", { aud: "console" }, "own"],
    ["another azp", { aud: ["gateway-ctl", "x"], azp: "x" }, "own"],
    ["expired", { iat: t - 4000, exp: t - 10 }, "own"],
    ["stale", { iat: t - 901 }, "own"],
    ["issued in the future", { iat: t + 3600, exp: t + 7200 }, "own"],
    ["no subject", { sub: "" }, "own"],
  ] as const)("refuses %s", async (_name, claims, key) => {
    const token = await sign(claims as JWTPayload, key === "other" ? other.privateKey : pair.privateKey);
    await expect(verifyOperatorIdToken(token, settings, await keysFor(pair.publicKey), now)).rejects.toBeInstanceOf(OperatorProofError);
  });

  it("refuses an edited payload and an unsigned token", async () => {
    const [h, , s] = (await sign({})).split(".");
    const edited = `${h}.${Buffer.from(JSON.stringify({ iss: settings.issuer, aud: settings.clientId, sub: "op-admin", iat: t, exp: t + 600 })).toString("base64url")}.${s}`;
    await expect(verifyOperatorIdToken(edited, settings, await keysFor(pair.publicKey), now)).rejects.toBeInstanceOf(OperatorProofError);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss: settings.issuer, aud: settings.clientId, sub: "op-1", iat: t, exp: t + 600 })).toString("base64url")}.`;
    await expect(verifyOperatorIdToken(none, settings, await keysFor(pair.publicKey), now)).rejects.toBeInstanceOf(OperatorProofError);
  });
});
