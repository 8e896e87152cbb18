// The Ed25519 key that signs evidence manifests. In production it comes from configuration
// (AUDIT_SIGNING_KEY holding a PKCS#8 PEM, or AUDIT_SIGNING_KEY_FILE naming one); in development a
// key is generated once into the data directory so repeated exports share one fingerprint.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDirFromEnv } from "@/db/config";
import { type Env, readSetting } from "@/lib/config/schema";
import { isProduction } from "@/lib/config/app-env";

export interface Signer {
  keyFingerprint: string;
  publicKey: string; // base64 SPKI DER
  source: "configured" | "development";
  sign(payload: string | Buffer): string; // base64 signature
}

export function fingerprintOf(publicKey: KeyObject): string {
  const der = publicKey.export({ format: "der", type: "spki" });
  return `sha256:${createHash("sha256").update(der).digest("hex")}`;
}

export function publicKeyFromBase64(spkiBase64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(spkiBase64, "base64"), format: "der", type: "spki" });
  if (key.asymmetricKeyType !== "ed25519") throw new Error("public key is not Ed25519");
  return key;
}

export function verifySignature(publicKey: KeyObject, payload: string, signatureBase64: string): boolean {
  return verify(null, Buffer.from(payload), publicKey, Buffer.from(signatureBase64, "base64"));
}

function signerFor(privateKey: KeyObject, source: Signer["source"]): Signer {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("AUDIT_SIGNING_KEY is not an Ed25519 private key");
  const publicKey = createPublicKey(privateKey);
  return {
    keyFingerprint: fingerprintOf(publicKey),
    publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    source,
    sign: (payload) => sign(null, Buffer.from(payload), privateKey).toString("base64"),
  };
}

export function devKeyPath(env: Env = process.env): string {
  return path.join(dataDirFromEnv(env), "keys", "audit-signing-ed25519.pem");
}

export function loadSigner(env: Env = process.env): Signer {
  const keyFile = readSetting(env, "AUDIT_SIGNING_KEY_FILE");
  const pem = readSetting(env, "AUDIT_SIGNING_KEY") ?? (keyFile === undefined ? undefined : fs.readFileSync(keyFile, "utf8"));
  if (pem) return signerFor(createPrivateKey(pem), "configured");
  if (isProduction(env)) {
    throw new Error("APP_ENV=production needs AUDIT_SIGNING_KEY or AUDIT_SIGNING_KEY_FILE; refusing a development key");
  }
  const file = devKeyPath(env);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync("ed25519");
    // wx: never overwrite a key another process created a moment ago.
    try {
      fs.writeFileSync(file, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return signerFor(createPrivateKey(fs.readFileSync(file, "utf8")), "development");
}
