import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { open, openBlob, seal, sealBlob, vaultKey, VaultError } from "@/lib/vault/vault";

const key = vaultKey({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "eg-vault-")) });
const alice = { subject: "user-alice-1001", tenantId: "acme", providerId: "demo-git", scope: "repo:read" };

describe("vault", () => {
  it("round-trips for the bound owner and never stores the plaintext", () => {
    const s = seal(key, alice, "gho_secret_value");
    expect(open(key, alice, s)).toBe("gho_secret_value");
    expect(Buffer.concat([s.ciphertext, s.wrappedDataKey]).includes(Buffer.from("gho_secret_value"))).toBe(false);
  });

  it.each([
    ["another subject", { ...alice, subject: "user-mallory-2001" }],
    ["another tenant", { ...alice, tenantId: "globex" }],
    ["another provider", { ...alice, providerId: "other" }],
    ["another scope", { ...alice, scope: "repo:write" }],
  ])("refuses to open for %s", (_n, binding) => {
    expect(() => open(key, binding, seal(key, alice, "x"))).toThrow(VaultError);
  });

  it("refuses a tampered ciphertext and a different key", () => {
    const s = seal(key, alice, "x");
    const tampered = { ...s, ciphertext: Buffer.from(s.ciphertext.map((b) => b ^ 1)) };
    expect(() => open(key, alice, tampered)).toThrow(VaultError);
    expect(() => open({ id: key.id, key: Buffer.alloc(32, 7) }, alice, s)).toThrow(VaultError);
  });

  it("rejects a malformed configured key", () => {
    expect(() => vaultKey({ VAULT_KEY: Buffer.alloc(16).toString("base64") })).toThrow(/32 bytes/);
    expect(() => vaultKey({ APP_ENV: "production" })).toThrow(/VAULT_KEY/);
  });

  it("seals small values to a context", () => {
    const blob = sealBlob(key, "pkce:rec1", "verifier");
    expect(openBlob(key, "pkce:rec1", blob)).toBe("verifier");
    expect(() => openBlob(key, "pkce:rec2", blob)).toThrow(VaultError);
  });
});
