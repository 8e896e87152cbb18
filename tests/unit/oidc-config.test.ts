import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bearerChallenge, BearerError, resourceMetadataUrl } from "@/lib/auth/mcp-bearer";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { rolesFromClaim } from "@/lib/auth/permissions";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-oidc-"));

describe("OIDC configuration", () => {
  it("uses the bundled development provider under APP_URL when no issuer is configured", () => {
    const cfg = oidcConfig({ APP_URL: "http://localhost:4000/", DATA_DIR: dataDir });
    expect(cfg).toMatchObject({
      devProvider: true,
      issuer: "http://localhost:4000/oidc",
      mcpResource: "http://localhost:4000/api/mcp",
      rolesClaim: "roles",
      tenantClaim: "tenant",
    });
  });

  it.each([
    "https://connect.example.com\\@evil.example",
    "https://connect.example.com%2F@evil.example/",
    "https://0x7f.1/",
    "javascript:alert(1)",
    "not a url",
    "https://host.example.com./",
  ])("refuses an APP_URL that parsers read differently: %s", (url) => {
    expect(() => oidcConfig({ APP_URL: url, DATA_DIR: dataDir })).toThrow(/APP_URL/);
  });

  it("uses the configured issuer and claims in production", () => {
    const cfg = oidcConfig({
      APP_ENV: "production",
      APP_URL: "https://gw.example.com",
      OIDC_ISSUER: "https://login.example.com/",
      OIDC_CLIENT_ID: "gw",
      OIDC_CLIENT_SECRET: "s",
      OIDC_ROLES_CLAIM: "groups",
      OIDC_TENANT_CLAIM: "org",
      SESSION_SECRET: "x".repeat(32),
    });
    expect(cfg).toMatchObject({
      devProvider: false,
      issuer: "https://login.example.com",
      clientId: "gw",
      rolesClaim: "groups",
      tenantClaim: "org",
    });
  });

  it("refuses the development provider and generated secrets in production", () => {
    expect(() => oidcConfig({ APP_ENV: "production", DATA_DIR: dataDir, SESSION_SECRET: "s" })).toThrow(/needs OIDC_ISSUER/);
    expect(() => oidcConfig({ APP_ENV: "production", OIDC_ISSUER: "https://i", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" })).toThrow(
      /SESSION_SECRET/,
    );
    expect(() => oidcConfig({ OIDC_ISSUER: "https://i", DATA_DIR: dataDir })).toThrow(/OIDC_CLIENT_ID/);
  });

  it("keeps only known roles from a roles or groups claim", () => {
    expect(rolesFromClaim(["operator", "engineering", "auditor"])).toEqual(["operator", "auditor"]);
    expect(rolesFromClaim("viewer admin")).toEqual(["admin", "viewer"]);
    expect(rolesFromClaim(undefined)).toEqual([]);
  });
});

describe("bearer challenge", () => {
  it("points at the RFC 9728 metadata for the resource path", () => {
    expect(resourceMetadataUrl("https://gw.example.com/api/mcp")).toBe(
      "https://gw.example.com/.well-known/oauth-protected-resource/api/mcp",
    );
    expect(bearerChallenge("https://gw.example.com/api/mcp", new BearerError("invalid_token", "token expired"))).toBe(
      'Bearer resource_metadata="https://gw.example.com/.well-known/oauth-protected-resource/api/mcp", scope="mcp", error="invalid_token", error_description="token expired"',
    );
  });
});
