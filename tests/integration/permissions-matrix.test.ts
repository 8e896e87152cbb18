// Acceptance: a roles x permissions matrix against the real database exercises every pair, with a
// guard that the number of cases run equals roles x permissions. The expected table is written
// out here from the wording, independently of lib/auth/permissions.ts.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, operators } from "@/db/schema";
import { AuthError, authorize } from "@/lib/auth/authorize";
import { ALL_PERMISSIONS, ROLES, type Permission, type Role } from "@/lib/auth/permissions";
import { createTestStore, type TestStore } from "../helpers/test-store";

const READ = ["health.read", "records.read", "audit.read"];
const EXPECTED: Record<Role, string[]> = {
  viewer: READ,
  operator: [...READ, "kill_switch.change", "records.revoke"],
  releaser: [...READ, "promotion.request", "flow.rollback"],
  approver: [...READ, "promotion.approve", "workflow_action.approve"],
  auditor: [...READ, "audit.export", "audit.verify"],
  admin: [
    ...READ,
    "kill_switch.change",
    "records.revoke",
    "promotion.request",
    "flow.rollback",
    "promotion.approve",
    "workflow_action.approve",
    "audit.export",
    "audit.verify",
    "origins.manage",
    "providers.manage",
    "operators.manage",
    "client_profiles.manage",
    "upstreams.manage",
  ],
};

let t: TestStore;
let casesRun = 0;

beforeAll(async () => {
  t = await createTestStore();
  await t.store.db.insert(operators).values(ROLES.map((role) => ({ subject: `sub-${role}`, displayName: role, roles: [role] })));
  await t.store.db.insert(operators).values({ subject: "sub-disabled", displayName: "gone", roles: ["admin"], disabledAt: new Date() });
});
afterAll(async () => {
  await t.dispose();
});

const denialsFor = async (subject: string, permission: string) =>
  (
    await t.store.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "access.denied"), eq(auditLog.actorId, subject)))
  ).filter((e) => (e.detail as { permission: string }).permission === permission).length;

describe("roles x permissions", () => {
  for (const role of ROLES) {
    for (const permission of ALL_PERMISSIONS) {
      const allowed = EXPECTED[role].includes(permission);
      it(`${role} ${allowed ? "may" : "may not"} ${permission}`, async () => {
        casesRun++;
        const subject = `sub-${role}`;
        const before = await denialsFor(subject, permission);
        const outcome = await authorize(t.store.db, subject, permission as Permission, { type: "test", id: permission }).then(
          (op) => op.subject,
          (err: unknown) => err,
        );
        if (allowed) {
          expect(outcome).toBe(subject);
          expect(await denialsFor(subject, permission)).toBe(before);
        } else {
          expect(outcome).toBeInstanceOf(AuthError);
          expect((outcome as AuthError).status).toBe(403);
          expect(await denialsFor(subject, permission)).toBe(before + 1);
        }
      });
    }
  }

  it("refuses a disabled operator, an unknown subject (403, audited) and no subject (401)", async () => {
    await expect(authorize(t.store.db, "sub-disabled", "health.read", { type: "t", id: "x" })).rejects.toMatchObject({ status: 403 });
    await expect(authorize(t.store.db, "user-alice-1001", "health.read", { type: "t", id: "x" })).rejects.toMatchObject({ status: 403 });
    await expect(authorize(t.store.db, undefined, "health.read", { type: "t", id: "x" })).rejects.toMatchObject({ status: 401 });
    expect(await denialsFor("sub-disabled", "health.read")).toBe(1);
  });

  it("ran every pair (guard against a vacuous matrix)", () => {
    expect(ROLES.length).toBe(6);
    expect(ALL_PERMISSIONS.length).toBeGreaterThanOrEqual(14);
    expect(casesRun).toBe(ROLES.length * ALL_PERMISSIONS.length);
    // The table under test grants exactly what the table says, no more.
    expect(new Set(Object.values(EXPECTED).flat())).toEqual(new Set(ALL_PERMISSIONS));
  });
});
