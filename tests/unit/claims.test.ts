// Reading roles and tenant the way real issuers send them, and the settings that say how.
import { describe, expect, it } from "vitest";
import {
  accessTokenTypSetting,
  claimAt,
  claimPathSetting,
  parseRoleMap,
  rolesFromClaimValue,
  tenantFromClaimValue,
} from "@/lib/auth/claims";
import { oidcConfig } from "@/lib/auth/oidc-config";

const env = (extra: Record<string, string>) => ({
  APP_URL: "http://localhost:3000",
  APP_ENV: "development",
  SESSION_SECRET: "s".repeat(40),
  DEV_IDP_CONSOLE_CLIENT_SECRET: "c".repeat(40),
  ...extra,
});

describe("claimAt", () => {
  it("reads plain and nested claims, own properties only", () => {
    const p = JSON.parse('{"roles":["admin"],"realm_access":{"roles":["g"]},"__proto__":{"polluted":["admin"]}}') as Record<
      string,
      unknown
    >;
    expect(claimAt(p, "roles")).toEqual(["admin"]);
    expect(claimAt(p, "realm_access.roles")).toEqual(["g"]);
    expect(claimAt(p, "polluted")).toBeUndefined();
    expect(claimAt(p, "constructor")).toBeUndefined();
    expect(claimAt(p, "roles.length")).toBeUndefined();
    expect(claimAt({ a: "x" }, "a.b")).toBeUndefined();
  });
});

describe("roles", () => {
  const map = parseRoleMap("gw-admins=admin, gw-ops=operator");
  it("accepts strings and arrays of role names without a map", () => {
    expect(rolesFromClaimValue("viewer admin")).toEqual(["admin", "viewer"]);
    expect(rolesFromClaimValue(["operator", 7, "engineering"])).toEqual(["operator"]);
    expect(rolesFromClaimValue({ admin: true })).toEqual([]);
  });
  it("with a map, grants only what mapped groups say: a group named like a role grants nothing", () => {
    expect(rolesFromClaimValue(["gw-admins", "everyone"], map)).toEqual(["admin"]);
    expect(rolesFromClaimValue(["admin", "gw-ops"], map)).toEqual(["operator"]);
    expect(rolesFromClaimValue(["toString", "__proto__", "constructor"], map)).toEqual([]);
  });
  it("refuses a map that names no role, maps a group twice, or is not group=role", () => {
    expect(() => parseRoleMap("gw=superuser")).toThrow(/not a role/);
    expect(() => parseRoleMap("gw=admin,gw=viewer")).toThrow(/mapped twice/);
    expect(() => parseRoleMap("admin")).toThrow(/not group=role/);
    expect(() => parseRoleMap("g\u0000x=admin")).toThrow(/not group=role/);
    expect(parseRoleMap("").size).toBe(0);
  });
});

describe("tenant", () => {
  it("is a string or a one-element array; anything else is no tenant", () => {
    expect(tenantFromClaimValue("acme")).toBe("acme");
    expect(tenantFromClaimValue(["acme"])).toBe("acme");
    expect(tenantFromClaimValue(["acme", "globex"])).toBeNull();
    expect(tenantFromClaimValue([])).toBeNull();
    expect(tenantFromClaimValue("")).toBeNull();
    expect(tenantFromClaimValue({ id: "acme" })).toBeNull();
  });
});

describe("settings", () => {
  it("checks claim paths and the access-token typ once, at start", () => {
    expect(claimPathSetting("X", "realm_access.roles", "roles")).toBe("realm_access.roles");
    expect(claimPathSetting("X", undefined, "roles")).toBe("roles");
    expect(() => claimPathSetting("OIDC_ROLES_CLAIM", "a..b", "roles")).toThrow(/OIDC_ROLES_CLAIM/);
    expect(() => claimPathSetting("OIDC_ROLES_CLAIM", "__proto__.x", "roles")).toThrow(/OIDC_ROLES_CLAIM/);
    expect(accessTokenTypSetting(undefined)).toBe("at+jwt");
    expect(accessTokenTypSetting("JWT")).toBe("JWT");
    expect(accessTokenTypSetting("any")).toBeUndefined();
    expect(() => accessTokenTypSetting("at jwt\n")).toThrow(/OIDC_ACCESS_TOKEN_TYP/);
  });
  it("reads them into the OIDC configuration, with openid always among the scopes", () => {
    const cfg = oidcConfig(
      env({
        OIDC_ROLES_CLAIM: "groups",
        OIDC_ROLE_MAP: "gw-admins=admin",
        OIDC_TENANT_CLAIM: "tid",
        OIDC_ACCESS_TOKEN_TYP: "any",
        OIDC_SCOPES: "profile groups",
      }),
    );
    expect(cfg).toMatchObject({ rolesClaim: "groups", tenantClaim: "tid", accessTokenTyp: undefined, scopes: "openid profile groups" });
    expect([...cfg.roleMap]).toEqual([["gw-admins", "admin"]]);
    expect(oidcConfig(env({})).scopes).toBe("openid profile roles tenant");
    expect(() => oidcConfig(env({ OIDC_SCOPES: 'openid pro"file' }))).toThrow(/OIDC_SCOPES/);
  });
});
