// The user's identity as the gateway passes it to an upstream: a short-lived JWT it signs (EdDSA)
// with `sub`, `tenant`, `aud` = the upstream's id, `iss` = this app, a minute to live, a unique
// `jti`. The client's own access token is never forwarded (token passthrough is forbidden by the
// MCP authorization spec); an upstream verifies this assertion against the keys published at
// /.well-known/gateway-jwks.json and may bind its own URL-mode flows to the person.
// The key comes from configuration in production (GATEWAY_SIGNING_KEY, PKCS#8 PEM, Ed25519);
// development generates one into DATA_DIR/keys, like the audit signing key.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { exportJWK, SignJWT, type JWK } from "jose";
import { dataDirFromEnv, type Env } from "@/db/config";
import { isProduction } from "@/lib/config/app-env";
import { ConfigError } from "@/lib/config/secrets";
import { appUrl } from "@/lib/auth/oidc-config";

/** The header an upstream reads the assertion from. */
export const IDENTITY_HEADER = "x-gateway-identity";
export const ASSERTION_TTL_SECONDS = 60;
export const JWKS_PATH = "/.well-known/gateway-jwks.json";

interface Key {
  privateKey: KeyObject;
  kid: string;
  jwk: JWK;
}

let cached: { env: string; key: Promise<Key> } | undefined;

function devKeyFile(env: Env): string {
  return path.join(dataDirFromEnv(env), "keys", "gateway-assertion-ed25519.pem");
}

function loadPem(env: Env): string {
  if (env.GATEWAY_SIGNING_KEY?.trim()) return env.GATEWAY_SIGNING_KEY;
  if (isProduction(env))
    throw new ConfigError(
      "APP_ENV=production needs GATEWAY_SIGNING_KEY (an Ed25519 PKCS#8 PEM that signs the identity assertions sent to upstream MCP servers)",
    );
  const file = devKeyFile(env);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }), {
        mode: 0o600,
        flag: "wx",
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return fs.readFileSync(file, "utf8");
}

async function load(env: Env): Promise<Key> {
  const privateKey = createPrivateKey(loadPem(env));
  if (privateKey.asymmetricKeyType !== "ed25519") throw new ConfigError("GATEWAY_SIGNING_KEY is not an Ed25519 private key");
  const publicKey = createPublicKey(privateKey);
  const kid = createHash("sha256")
    .update(publicKey.export({ format: "der", type: "spki" }))
    .digest("base64url")
    .slice(0, 16);
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "EdDSA", use: "sig" };
  return { privateKey, kid, jwk };
}

function key(env: Env = process.env): Promise<Key> {
  const id = `${env.GATEWAY_SIGNING_KEY ?? ""}|${dataDirFromEnv(env)}`;
  if (!cached || cached.env !== id) cached = { env: id, key: load(env) };
  return cached.key;
}

/** The published keys: what an upstream verifies assertions with. */
export async function gatewayJwks(env: Env = process.env): Promise<{ keys: JWK[] }> {
  return { keys: [(await key(env)).jwk] };
}

export interface AssertedIdentity {
  subject: string;
  tenant: string;
  upstreamId: string;
  /** The verified OAuth client id the user's call came through ("" when none). */
  clientId: string;
}

export async function signIdentityAssertion(who: AssertedIdentity, env: Env = process.env): Promise<string> {
  const k = await key(env);
  return new SignJWT({ tenant: who.tenant, ...(who.clientId ? { client_id: who.clientId } : {}) })
    .setProtectedHeader({ alg: "EdDSA", kid: k.kid, typ: "gateway-identity+jwt" })
    .setIssuer(appUrl(env))
    .setSubject(who.subject)
    .setAudience(who.upstreamId)
    .setIssuedAt()
    .setExpirationTime(`${ASSERTION_TTL_SECONDS}s`)
    .setJti(randomBytes(16).toString("hex"))
    .sign(k.privateKey);
}
