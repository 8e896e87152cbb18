// A record draft for the tests that write elicitation records straight into the store instead of
// through the engine (rollup, reconciliation, telemetry, record queries, revocation, promotion):
// every column the test does not look at gets a placeholder, so each test names only what it needs.
import { newRecordId, type RecordDraft } from "@/lib/elicitation/records";

/**
 * A draft for `insertRecord`: a new id (also the request id), the mode "form" routed as itself, a
 * field need for a form and a credential need for a URL; `overrides` replace any of these.
 */
export function recordDraft(overrides: Partial<RecordDraft> = {}): RecordDraft {
  const id = overrides.id ?? newRecordId();
  const mode = overrides.mode ?? "form";
  return {
    id,
    mode,
    needKind: mode === "url" ? "credential" : "field",
    subject: "s",
    tenantId: "acme",
    sessionId: null,
    clientName: "c",
    clientVersion: "1",
    protocolVersion: "p",
    requestMethod: "tools/call",
    requestId: id,
    toolName: "t",
    flowId: null,
    purpose: "p",
    routeDecision: mode,
    routeReason: "r",
    ...overrides,
  };
}
