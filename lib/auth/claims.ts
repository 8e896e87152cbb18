// Reading identity claims the way real issuers send them. The claim that carries roles may be a
// string ("admin operator"), an array (["admin"]), nested (Keycloak's realm_access.roles) or a list
// of group names that the deployment maps to roles (OIDC_ROLE_MAP); the tenant claim may be a
// string or a one-element array. Only own properties are read, so "__proto__" or "constructor"
// in a claim path or a token finds nothing.
import { hasNoControlCharacters } from "@/lib/http/params";
import { ROLES, type Role } from "./permissions";

/** A claim path: one name, or names joined by dots for nested claims. */
export const CLAIM_PATH = /^[A-Za-z_][A-Za-z0-9_:-]{0,99}(\.[A-Za-z_][A-Za-z0-9_:-]{0,99}){0,4}$/;

export function claimAt(payload: unknown, path: string): unknown {
  let cur: unknown = payload;
  for (const key of path.split(".")) {
    if (!cur || typeof cur !== "object" || Array.isArray(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Group (or role) names from the issuer mapped to this product's roles. */
export type RoleMap = ReadonlyMap<string, Role>;

function namesOf(value: unknown): string[] {
  if (typeof value === "string") return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/**
 * The roles a claim grants. Without a map, names that are this product's role names count. With a
 * map, only mapped names count: a group that happens to be called "admin" in the issuer grants
 * nothing unless the deployment said so.
 */
export function rolesFromClaimValue(value: unknown, map?: RoleMap): Role[] {
  const names = namesOf(value);
  const granted = map && map.size > 0 ? new Set(names.flatMap((n) => (map.has(n) ? [map.get(n)!] : []))) : new Set(names);
  return ROLES.filter((r) => granted.has(r));
}

/** A tenant: a non-empty string, or an array holding exactly one (several would be ambiguous). */
export function tenantFromClaimValue(value: unknown): string | null {
  if (typeof value === "string" && value) return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string" && value[0]) return value[0];
  return null;
}

/** OIDC_ROLE_MAP: "group=role" pairs separated by commas, e.g. "gw-admins=admin,gw-ops=operator". */
export function parseRoleMap(raw: string | undefined): RoleMap {
  const map = new Map<string, Role>();
  if (!raw?.trim()) return map;
  for (const pair of raw.split(",")) {
    const i = pair.lastIndexOf("=");
    const group = pair.slice(0, i).trim();
    const role = pair.slice(i + 1).trim();
    if (i <= 0 || !group || !hasNoControlCharacters(group)) throw new Error(`OIDC_ROLE_MAP: "${pair.trim()}" is not group=role`);
    if (!(ROLES as readonly string[]).includes(role))
      throw new Error(`OIDC_ROLE_MAP: "${role}" is not a role (one of ${ROLES.join(", ")})`);
    if (map.has(group)) throw new Error(`OIDC_ROLE_MAP: group "${group}" is mapped twice`);
    map.set(group, role as Role);
  }
  return map;
}

/** A claim path setting (OIDC_ROLES_CLAIM, OIDC_TENANT_CLAIM), checked once at start. */
export function claimPathSetting(name: string, raw: string | undefined, fallback: string): string {
  const v = raw?.trim() || fallback;
  if (!CLAIM_PATH.test(v) || v.split(".").some((k) => k === "__proto__" || k === "constructor" || k === "prototype")) {
    throw new Error(`${name} must be a claim name or a dotted path of claim names (letters, digits, _ : -)`);
  }
  return v;
}

/**
 * OIDC_ACCESS_TOKEN_TYP: the JOSE `typ` the MCP endpoint requires of access tokens. Default
 * "at+jwt" (RFC 9068); "JWT" for issuers that label access tokens so; "any" to skip the check for
 * issuers that send no `typ` at all (issuer, audience, signature and lifetime are still checked).
 */
export function accessTokenTypSetting(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (!v) return "at+jwt";
  if (v === "any") return undefined;
  if (!/^[A-Za-z0-9.+/-]{1,40}$/.test(v)) throw new Error('OIDC_ACCESS_TOKEN_TYP must be a media type such as "at+jwt" or "JWT", or "any"');
  return v;
}
