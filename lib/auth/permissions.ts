// Permissions are constants; roles map to sets of them. Every server action, route handler and
// query that needs one calls `authorize()` (lib/auth/authorize.ts) on the server: a hidden button
// is never a check. Roles come from db/schema.ts (operator_role), the one source of their names.
import { operatorRole } from "@/db/schema";

export type Role = (typeof operatorRole.enumValues)[number];
export const ROLES = operatorRole.enumValues;

export const PERMISSIONS = {
  healthRead: "health.read",
  recordsRead: "records.read",
  auditRead: "audit.read",
  killSwitchChange: "kill_switch.change",
  recordsRevoke: "records.revoke",
  promotionRequest: "promotion.request",
  flowRollback: "flow.rollback",
  promotionApprove: "promotion.approve",
  workflowApprove: "workflow_action.approve",
  auditExport: "audit.export",
  auditVerify: "audit.verify",
  originsManage: "origins.manage",
  providersManage: "providers.manage",
  // Which OAuth client ids belong to which client profile (and so to which flows): admins only.
  clientProfilesManage: "client_profiles.manage",
  operatorsManage: "operators.manage",
  // Gateway mode: which upstream MCP servers exist, for which tenants, with which credential.
  upstreamsManage: "upstreams.manage",
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];
export const ALL_PERMISSIONS: readonly Permission[] = Object.values(PERMISSIONS);

const READ: Permission[] = [PERMISSIONS.healthRead, PERMISSIONS.recordsRead, PERMISSIONS.auditRead];

export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(READ),
  operator: new Set([...READ, PERMISSIONS.killSwitchChange, PERMISSIONS.recordsRevoke]),
  releaser: new Set([...READ, PERMISSIONS.promotionRequest, PERMISSIONS.flowRollback]),
  // Approvers never approve their own request: enforced where approvals are decided.
  approver: new Set([...READ, PERMISSIONS.promotionApprove, PERMISSIONS.workflowApprove]),
  auditor: new Set([...READ, PERMISSIONS.auditExport, PERMISSIONS.auditVerify]),
  admin: new Set(ALL_PERMISSIONS),
};

export function hasPermission(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((r) => ROLE_PERMISSIONS[r].has(permission));
}

/** Keeps the claim values this product knows, in a stable order; unknown groups are ignored. */
export function rolesFromClaim(claim: unknown): Role[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? claim.split(/[\s,]+/) : [];
  return ROLES.filter((r) => values.includes(r));
}
