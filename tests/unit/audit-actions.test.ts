// The audit vocabulary as a type (issue 16, item 3): every constant has the shape the database
// checks, the repeats of coalesced actions keep the names they always had, and text from outside
// (a URL filter) narrows to an action only when it is one the product writes.
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_PATTERN, AUDIT_ACTION_VALUES, AUDIT_ACTIONS, isAuditAction, REPEATED_ACTION } from "@/lib/audit/actions";

describe("audit actions", () => {
  it("are unique and each has the resource.verb shape the audit_action_ck constraint checks", () => {
    expect(new Set(AUDIT_ACTION_VALUES).size).toBe(Object.keys(AUDIT_ACTIONS).length);
    for (const a of AUDIT_ACTION_VALUES) expect(a).toMatch(AUDIT_ACTION_PATTERN);
  });

  it("name each coalesced action's repeats `<action>_repeated`, an action of its own", () => {
    const pairs = Object.entries(REPEATED_ACTION);
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const [action, repeated] of pairs) {
      expect(repeated).toBe(`${action}_repeated`);
      expect(isAuditAction(action) && isAuditAction(repeated)).toBe(true);
    }
  });

  it("narrow outside text only to known actions: well-formed strangers and prototype keys are not actions", () => {
    expect(isAuditAction(AUDIT_ACTIONS.accessDenied)).toBe(true);
    for (const s of ["elicitation.sent", "__proto__.x", "__proto__", "constructor", "toString", "access.denied ", "ACCESS.DENIED", ""])
      expect(isAuditAction(s), s).toBe(false);
  });
});
