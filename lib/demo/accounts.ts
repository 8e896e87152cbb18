// Demo identities. The bundled development identity provider (Identity and access issue) signs
// these in; the seed gives the operator accounts their roles. Subjects are opaque on purpose:
// nothing in the store identifies a person beyond the `sub` the issuer vouches for.
import type { operatorRole } from "@/db/schema";

type Role = (typeof operatorRole.enumValues)[number];

export const DEMO_OPERATORS: ReadonlyArray<{ subject: string; login: string; displayName: string; role: Role }> = [
  { subject: "op-admin-0001", login: "admin", displayName: "Ada Admin", role: "admin" },
  { subject: "op-operator-0002", login: "operator", displayName: "Oscar Operator", role: "operator" },
  { subject: "op-releaser-0003", login: "releaser", displayName: "Rita Releaser", role: "releaser" },
  { subject: "op-approver-0004", login: "approver", displayName: "Avi Approver", role: "approver" },
  { subject: "op-auditor-0005", login: "auditor", displayName: "Audrey Auditor", role: "auditor" },
  { subject: "op-viewer-0006", login: "viewer", displayName: "Vic Viewer", role: "viewer" },
];

export const DEMO_TENANTS = [
  { id: "acme", displayName: "Acme Corp", defaultRegion: "eu-west-1" },
  { id: "globex", displayName: "Globex Inc", defaultRegion: "us-east-1" },
] as const;

// End users of MCP clients; mallory (tenant globex) plays the attacker in security tests.
export const DEMO_END_USERS = [
  { subject: "user-alice-1001", login: "alice", tenantId: "acme" },
  { subject: "user-bob-1002", login: "bob", tenantId: "acme" },
  { subject: "user-mallory-2001", login: "mallory", tenantId: "globex" },
] as const;

// Test users of the release gates' browser steps (recovery, accessibility). A canary flow admits a
// stable share of subjects (lib/policy/flows.ts inCohort); the seeded 20% shares admit none of the
// three end users for some list_repositories flows, so these six are there for the gates to pick
// one inside the share without raising it. Six cover every seeded list_repositories flow at 20%
// (tests/unit/gate-testers.test.ts); the canary rule itself is unchanged.
export const DEMO_GATE_TESTERS = Array.from({ length: 6 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  return { subject: `user-gate-tester-${n}`, login: `tester${n}`, tenantId: "acme" } as const;
});
