// For console pages: redirect to sign-in when nobody is signed in; otherwise the same server-side
// permission check as every action. A page view's denial is audited coalesced: the first in a
// window is written, repeats are counted (lib/abuse/audit-coalesce.ts).
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { AuthError, authorize, type Operator, type Target } from "./authorize";
import type { SessionUser } from "./next-auth-options";
import type { Permission } from "./permissions";
import { currentUser } from "./session";

export type PageAccess = { ok: true; db: Db; operator: Operator; user: SessionUser } | { ok: false; user: SessionUser; reason: string };

export async function pageAccess(permission: Permission, target: Target, path: string): Promise<PageAccess> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  const db = await getDb();
  try {
    return { ok: true, db, operator: await authorize(db, user.sub, permission, target, { view: true }), user };
  } catch (err) {
    if (err instanceof AuthError) return { ok: false, user, reason: err.message };
    throw err;
  }
}
