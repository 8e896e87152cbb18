// Read access for route handlers: the same server-side check as actions. A plain read (a GET that
// changes nothing) audits its denial coalesced, like a page view, so a script polling an API it may
// not read cannot flood the audit log; reads that produce something (an export, a verification)
// pass `{ view: false }` and audit every denied attempt.
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { AuthError, authorize, type Operator, type Target } from "./authorize";
import type { Permission } from "./permissions";
import { currentUser } from "./session";

export type ReadGuard = { ok: true; db: Db; operator: Operator } | { ok: false; status: 401 | 403; result: { ok: false; error: string } };

export async function readGuard(permission: Permission, target: Target, options: { view: boolean } = { view: true }): Promise<ReadGuard> {
  const user = await currentUser();
  if (!user) return { ok: false, status: 401, result: { ok: false, error: "sign-in required" } };
  const db = await getDb();
  try {
    return { ok: true, db, operator: await authorize(db, user.sub, permission, target, { view: options.view }) };
  } catch (err) {
    if (err instanceof AuthError) return { ok: false, status: err.status, result: { ok: false, error: err.message } };
    throw err;
  }
}
