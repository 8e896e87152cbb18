// The authorise step of requireOperator (require-operator.ts) without the browser session, so the
// CLI (lib/cli/as-operator.ts) uses the same check with the subject a `ctl login` proved, without
// loading next-auth. A refusal is already audited by authorize() when it comes back.
import type { Db } from "@/db/client";
import { AuthError, authorize, type AuthorizeOptions, type Operator, type Target } from "./authorize";
import type { Permission } from "./permissions";

export type OperatorCheck = { ok: true; operator: Operator } | { ok: false; status: 401 | 403; error: string };

/** Authorises `subject` for `permission` on `target`; a refusal (already audited) is a value, not a throw. */
export async function checkOperator(
  db: Db,
  subject: string | null | undefined,
  permission: Permission,
  target: Target,
  options: AuthorizeOptions = {},
): Promise<OperatorCheck> {
  try {
    return { ok: true, operator: await authorize(db, subject, permission, target, options) };
  } catch (err) {
    if (err instanceof AuthError) return { ok: false, status: err.status, error: err.message };
    throw err;
  }
}
