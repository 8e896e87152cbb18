// The development provider's accounts: the demo operators and end users (lib/demo/accounts.ts).
// Every demo account's password is DEMO_PASSWORD. This provider never runs in production unless
// DEV_IDP_ENABLED=true is set deliberately.
import { timingSafeEqual } from "node:crypto";
import { DEMO_END_USERS, DEMO_GATE_TESTERS, DEMO_OPERATORS } from "@/lib/demo/accounts";

export const DEMO_PASSWORD = "demo";

export interface DevAccount {
  subject: string;
  login: string;
  name: string;
  roles: string[];
  tenant: string;
}

const ACCOUNTS: DevAccount[] = [
  ...DEMO_OPERATORS.map((o) => ({ subject: o.subject, login: o.login, name: o.displayName, roles: [o.role], tenant: "acme" })),
  ...DEMO_END_USERS.map((u) => ({
    subject: u.subject,
    login: u.login,
    name: u.login[0]!.toUpperCase() + u.login.slice(1),
    roles: [],
    tenant: u.tenantId,
  })),
  ...DEMO_GATE_TESTERS.map((u) => ({
    subject: u.subject,
    login: u.login,
    name: `Gate tester ${u.login.slice(-2)}`,
    roles: [],
    tenant: u.tenantId,
  })),
];

/** The release gates' browser test users (lib/demo/accounts.ts DEMO_GATE_TESTERS). */
export function gateTesterAccounts(): readonly DevAccount[] {
  return ACCOUNTS.filter((a) => a.subject.startsWith("user-gate-tester-"));
}

export function accountBySubject(subject: string): DevAccount | undefined {
  return ACCOUNTS.find((a) => a.subject === subject);
}

export function checkLogin(login: string, password: string): DevAccount | undefined {
  const account = ACCOUNTS.find((a) => a.login === login.trim().toLowerCase());
  const a = Buffer.from(password);
  const b = Buffer.from(DEMO_PASSWORD);
  const ok = a.length === b.length && timingSafeEqual(a, b);
  return account && ok ? account : undefined;
}

export function allDevAccounts(): readonly DevAccount[] {
  return ACCOUNTS;
}
