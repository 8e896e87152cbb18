// The audit vocabulary: `resource.verb`, one constant per event, so the console, the exports and
// the tests share one spelling. The database also checks the shape (audit_action_ck).
export const AUDIT_ACTIONS = {
  auditExported: "audit.exported",
  auditVerified: "audit.verified",
  storeMigrated: "store.migrated",
  demoSeeded: "demo.seeded",
  accessDenied: "access.denied",
  // Repeats of a denied page view (or a refused connect view) inside one coalescing window,
  // written once with their count (lib/abuse/audit-coalesce.ts).
  accessDeniedRepeated: "access.denied_repeated",
  operatorSignedIn: "operator.signed_in",
  operatorSessionsEnded: "operator.sessions_ended",
  sessionSignedOut: "session.signed_out",
  killSwitchOn: "kill_switch.on",
  killSwitchOff: "kill_switch.off",
  killSwitchReleaseRequested: "kill_switch.release_requested",
  recordRevoked: "record.revoked",
  recordLateCallback: "record.late_callback",
  connectMismatch: "connect.mismatch",
  connectMismatchRepeated: "connect.mismatch_repeated",
  connectCompleted: "connect.completed",
  connectRefused: "connect.refused",
  connectRefusedRepeated: "connect.refused_repeated",
  connectDecided: "connect.decided",
  connectRestarted: "connect.restarted",
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
  gateRunStarted: "gate.run_started",
  gateConnectionReset: "gate.connection_reset",
  originAdded: "origin.added",
  originRemoved: "origin.removed",
  requestStateRefused: "request_state.refused",
  // Gateway mode (lib/gateway/): the upstream registry.
  upstreamAdded: "upstream.added",
  upstreamUpdated: "upstream.updated",
  upstreamRemoved: "upstream.removed",
} as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];
export const AUDIT_ACTION_VALUES = Object.values(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** Narrows text from outside (a URL filter) to an action this product writes. */
export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTION_VALUES as readonly string[]).includes(value);
}

/** The actions whose repeats are coalesced (lib/abuse/audit-coalesce.ts), and the entry that counts them. */
export const REPEATED_ACTION = {
  [AUDIT_ACTIONS.accessDenied]: AUDIT_ACTIONS.accessDeniedRepeated,
  [AUDIT_ACTIONS.connectMismatch]: AUDIT_ACTIONS.connectMismatchRepeated,
  [AUDIT_ACTIONS.connectRefused]: AUDIT_ACTIONS.connectRefusedRepeated,
} as const satisfies Partial<Record<AuditAction, AuditAction>>;
export type CoalescedAction = keyof typeof REPEATED_ACTION;
export const AUDIT_ACTION_PATTERN = /^[a-z_]+\.[a-z_]+$/;
