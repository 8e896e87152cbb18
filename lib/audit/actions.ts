// The audit vocabulary: `resource.verb`, one constant per event, so the console, the exports and
// the tests share one spelling. The database also checks the shape (audit_action_ck).
export const AUDIT_ACTIONS = {
  auditExported: "audit.exported",
  auditVerified: "audit.verified",
  storeMigrated: "store.migrated",
  demoSeeded: "demo.seeded",
  accessDenied: "access.denied",
  operatorSignedIn: "operator.signed_in",
  killSwitchOn: "kill_switch.on",
  killSwitchOff: "kill_switch.off",
  killSwitchReleaseRequested: "kill_switch.release_requested",
  recordRevoked: "record.revoked",
  recordLateCallback: "record.late_callback",
  connectMismatch: "connect.mismatch",
  connectCompleted: "connect.completed",
  connectRefused: "connect.refused",
  connectDecided: "connect.decided",
  flowPromotionRequested: "flow.promotion_requested",
  flowPromoted: "flow.promoted",
  flowRolledBack: "flow.rolled_back",
  flowRetestRequired: "flow.retest_required",
  flowCreated: "flow.created",
  flowCanarySet: "flow.canary_set",
  clientProfileSet: "client_profile.set",
  clientProfileRemoved: "client_profile.removed",
  approvalRequested: "approval.requested",
  approvalConsumed: "approval.consumed",
  approvalApproved: "approval.approved",
  approvalRejected: "approval.rejected",
  gateRecorded: "gate.recorded",
  originAdded: "origin.added",
  originRemoved: "origin.removed",
} as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];
export const AUDIT_ACTION_PATTERN = /^[a-z_]+\.[a-z_]+$/;
