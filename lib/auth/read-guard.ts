// Read access for route handlers and pages: the same server-side check as actions.
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { AuthError, authorize, type Operator, type Target } from "./authorize";
import type { Permission } from "./permissions";
import { currentUser } from "./session";

export type ReadGuard = { ok: true; db: Db; operator: Operator } | { ok: false; status: 401 | 403; result: { ok: false; error: string } };

export async function readGuard(permission: Permission, target: Target): Promise<ReadGuard> {
  const user = await currentUser();
  if (!user) return { ok: false, status: 401, result: { ok: false, error: "sign-in required" } };
  const db = await getDb();
  try {
    return { ok: true, db, operator: await authorize(db, user.sub, permission, target) };
  } catch (err) {
    if (err instanceof AuthError) return { ok: false, status: err.status, result: { ok: false, error: err.message } };
    throw err;
  }
}
