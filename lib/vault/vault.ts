// The vault for downstream credentials: AES-256-GCM envelope encryption. Each secret gets its own
// data key; the data key is wrapped by the configured key-encryption key (VAULT_KEY, 32 bytes,
// base64, named by VAULT_KEY_ID). Subject, tenant, provider and scope are bound as associated data
// to both layers, so a ciphertext moved to another owner's row fails to decrypt.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { type Env, readSetting } from "@/lib/config/schema";
import { devSecret } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";

export interface VaultKey {
  id: string;
  key: Buffer;
}

export interface Binding {
  subject: string;
  tenantId: string;
  providerId: string;
  scope: string;
}

export interface Sealed {
  keyId: string;
  wrappedDataKey: Buffer; // iv(12) | tag(16) | ciphertext(32)
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
  aadHash: string;
}

export class VaultError extends Error {
  override name = "VaultError";
}

export function vaultKey(env: Env = process.env): VaultKey {
  // The settings table checks the key is 32 bytes of base64, naming VAULT_KEY otherwise.
  const configured = readSetting(env, "VAULT_KEY");
  if (configured) return { id: readSetting(env, "VAULT_KEY_ID") ?? "configured", key: Buffer.from(configured, "base64") };
  if (isProduction(env)) throw new VaultError("APP_ENV=production needs VAULT_KEY and VAULT_KEY_ID");
  return { id: "dev-1", key: createHash("sha256").update(devSecret("vault-key", env)).digest() };
}

function aad(b: Binding): Buffer {
  // Length-prefixed so no two bindings serialise alike.
  return Buffer.from([b.subject, b.tenantId, b.providerId, b.scope].map((p) => `${p.length}:${p}`).join("|"));
}

function gcmSeal(key: Buffer, plaintext: Buffer, associated: Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(associated);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function gcmOpen(key: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer, associated: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(associated);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

export function seal(kek: VaultKey, binding: Binding, plaintext: string): Sealed {
  const associated = aad(binding);
  const dataKey = randomBytes(32);
  const inner = gcmSeal(dataKey, Buffer.from(plaintext, "utf8"), associated);
  const wrapped = gcmSeal(kek.key, dataKey, associated);
  dataKey.fill(0);
  return {
    keyId: kek.id,
    wrappedDataKey: Buffer.concat([wrapped.iv, wrapped.tag, wrapped.ciphertext]),
    iv: inner.iv,
    ciphertext: inner.ciphertext,
    authTag: inner.tag,
    aadHash: createHash("sha256").update(associated).digest("hex"),
  };
}

export function open(kek: VaultKey, binding: Binding, sealed: Sealed): string {
  if (sealed.keyId !== kek.id) throw new VaultError(`sealed with key ${sealed.keyId}, not the configured ${kek.id}`);
  const associated = aad(binding);
  try {
    const w = sealed.wrappedDataKey;
    const dataKey = gcmOpen(kek.key, w.subarray(0, 12), w.subarray(28), w.subarray(12, 28), associated);
    const plain = gcmOpen(dataKey, sealed.iv, sealed.ciphertext, sealed.authTag, associated);
    dataKey.fill(0);
    return plain.toString("utf8");
  } catch {
    throw new VaultError("vault entry does not open for this owner (wrong key, tampered, or bound to someone else)");
  }
}

/** Small values (a PKCE verifier) sealed into one blob: iv | tag | ciphertext. */
export function sealBlob(kek: VaultKey, context: string, plaintext: string): Buffer {
  const s = gcmSeal(kek.key, Buffer.from(plaintext, "utf8"), Buffer.from(context));
  return Buffer.concat([s.iv, s.tag, s.ciphertext]);
}

export function openBlob(kek: VaultKey, context: string, blob: Buffer): string {
  try {
    return gcmOpen(kek.key, blob.subarray(0, 12), blob.subarray(28), blob.subarray(12, 28), Buffer.from(context)).toString("utf8");
  } catch {
    throw new VaultError("sealed value does not open in this context");
  }
}
