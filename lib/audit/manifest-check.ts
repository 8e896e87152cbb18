// Reads a manifest's bytes and checks what can be checked from the manifest alone: its shape, its
// key, its signature, and (optionally) that the key is the one the caller trusts. Problems never
// quote the input (they reach the audit log): only fixed words and computed fingerprints.
import { createPublicKey, verify } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { DATA_FILE, manifestSchema, signedPayload, type Manifest } from "./manifest";
import { fingerprintOf, publicKeyFromBase64, verifySignature } from "./signing";

export const MAX_MANIFEST_BYTES = 64 * 1024;

export interface ManifestCheckOptions {
  /** Expected signer fingerprint (sha256:...). Without it the manifest's own key is used. */
  trustedFingerprint?: string;
}

export type ManifestCheck =
  | { ok: true; manifest: Manifest; fingerprint: string; key: ReturnType<typeof publicKeyFromBase64> }
  /** malformed: not a manifest at all (the upload is refused); otherwise the evidence failed. */
  | { ok: false; malformed: boolean; problem: string };

/** dataFile: the data file the archive actually holds, when known (archives put the manifest last). */
export function checkManifest(raw: Buffer, options: ManifestCheckOptions = {}, dataFile?: string): ManifestCheck {
  if (raw.length > MAX_MANIFEST_BYTES) return { ok: false, malformed: true, problem: "manifest.json is larger than any manifest" };
  let parsed: unknown;
  try {
    if (!isUtf8(raw)) throw new SyntaxError("not UTF-8");
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, malformed: true, problem: "manifest.json is malformed (not JSON)" };
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) return { ok: false, malformed: true, problem: "manifest.json is malformed (missing or invalid fields)" };
  const manifest = result.data;
  // The manifest may only name the data file its own format writes: never a path, never `..`.
  if (manifest.file !== DATA_FILE[manifest.format] || (dataFile !== undefined && manifest.file !== dataFile))
    return { ok: false, malformed: true, problem: "manifest.json names a data file other than the archive's data entry" };

  let key;
  try {
    key = publicKeyFromBase64(manifest.signer.publicKey);
  } catch {
    return { ok: false, malformed: false, problem: "manifest.json carries an unusable public key" };
  }
  const fingerprint = fingerprintOf(key);
  if (fingerprint !== manifest.signer.keyFingerprint)
    return { ok: false, malformed: false, problem: "manifest key fingerprint does not match its public key" };
  if (options.trustedFingerprint && options.trustedFingerprint !== fingerprint) {
    return { ok: false, malformed: false, problem: `signed by ${fingerprint}, not the trusted key ${options.trustedFingerprint}` };
  }
  let signed = false;
  try {
    signed = verifySignature(key, signedPayload(manifest), manifest.signature);
  } catch {
    signed = false;
  }
  if (!signed) return { ok: false, malformed: false, problem: "manifest signature does not match (manifest edited after signing)" };
  return { ok: true, manifest, fingerprint, key };
}

/** The detached signature (raw Ed25519, as openssl writes and reads it) over the manifest's exact bytes. */
export function checkDetached(
  check: Extract<ManifestCheck, { ok: true }>,
  manifestBytes: Buffer,
  signature: Buffer,
  publicKeyPem: Buffer,
): string | undefined {
  let pemKey;
  try {
    pemKey = createPublicKey(publicKeyPem.toString("utf8"));
  } catch {
    return "signer.pub.pem is not a public key";
  }
  if (pemKey.asymmetricKeyType !== "ed25519" || fingerprintOf(pemKey) !== check.fingerprint)
    return "signer.pub.pem is not the key that signed the manifest";
  if (signature.length !== 64 || !verify(null, manifestBytes, check.key, signature))
    return "manifest.json.sig does not match manifest.json";
  return undefined;
}
