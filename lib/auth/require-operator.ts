// The one operator check behind every console page, route handler, server action and CLI command:
// who is asking (the signed-in browser user, or the subject a `ctl login` proved), the store, the
// server-side permission check with its audited denial (lib/auth/authorize.ts), and what a store
// refusal means to the caller. Pages, routes, actions and the CLI are adapters over these; none
// repeats the try/catch.
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import type { AuthorizeOptions, Operator, Target } from "./authorize";
import { checkOperator } from "./check-operator";
import type { SessionUser } from "./next-auth-options";
import type { Permission } from "./permissions";
import { currentUser } from "./session";

export type OperatorAccess =
  { ok: true; db: Db; operator: Operator; user: SessionUser } | { ok: false; status: 401 | 403; error: string; user: SessionUser | null };

/**
 * The browser's operator, authorised. Nobody signed in is a 401 before the store is touched. A
 * page view or plain read passes `{ view: true }` so repeated denials are coalesced in the audit
 * log; an action, an export or a verification leaves it unset and every denial is written.
 */
export async function requireOperator(permission: Permission, target: Target, options: AuthorizeOptions = {}): Promise<OperatorAccess> {
  const user = await currentUser();
  if (!user) return { ok: false, status: 401, error: "sign-in required", user: null };
  const db = await getDb();
  const check = await checkOperator(db, user.sub, permission, target, options);
  return check.ok ? { ok: true, db, operator: check.operator, user } : { ...check, user };
}

/**
 * The store refusing work (unreachable, read-only, out of disk) rolled the transaction back: the
 * text to show next to the control instead of failing the page or pretending it took effect.
 * Undefined for any other error, which the caller rethrows.
 */
export function storeRefusal(err: unknown): string | undefined {
  const failure = storeFailureOf(err);
  return failure ? `Not changed: ${storeFailureText(failure)}. Nothing was saved; try again when it is back.` : undefined;
}
