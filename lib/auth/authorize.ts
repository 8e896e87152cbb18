// The server-side permission check. The role is re-read from the store on every call (a disabled
// operator or a changed role takes effect at once), a denial changes nothing but the audit log,
// and it is itself audited in its own transaction so the evidence survives the refused action.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { operators } from "@/db/schema";
import { auditCoalesced } from "@/lib/abuse/audit-coalesce";
import { abuseConfig } from "@/lib/abuse/config";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { hasPermission, type Permission, type Role } from "./permissions";

export class AuthError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

export interface Operator {
  subject: string;
  displayName: string;
  roles: Role[];
}

export interface Target {
  type: string;
  id: string;
}

export async function loadOperator(db: Db, subject: string): Promise<Operator | null> {
  const [row] = await db.select().from(operators).where(eq(operators.subject, subject)).limit(1);
  if (!row || row.disabledAt) return null;
  return { subject: row.subject, displayName: row.displayName, roles: row.roles };
}

export interface AuthorizeOptions {
  /**
   * A page view or other read (GET): repeated denials of the same view are coalesced in the audit
   * log (first one written, repeats counted). Actions leave this unset: one entry per attempt.
   */
  view?: boolean;
}

async function deny(
  db: Db,
  subject: string,
  permission: Permission,
  target: Target,
  why: string,
  options: AuthorizeOptions,
): Promise<never> {
  const entry = {
    actorType: "operator" as const,
    actorId: subject,
    action: AUDIT_ACTIONS.accessDenied,
    targetType: target.type,
    targetId: target.id,
    detail: { permission, reason: why },
  };
  if (options.view) {
    // A console page is a fixed target; any other target id comes from the URL, so it is left out
    // of the key: random ids must not each open a new window.
    const keyTarget = target.type === "console" ? `console:${target.id}` : `${target.type}:*`;
    await auditCoalesced(
      db,
      entry,
      { actor: subject, action: entry.action, reason: `${permission}:${why}`, target: keyTarget },
      abuseConfig().auditCoalesceWindowMs,
    );
  } else {
    await db.transaction((tx) => appendAudit(tx, entry));
  }
  throw new AuthError(`forbidden: ${permission} is not granted`, 403);
}

/**
 * Returns the operator when `subject` holds `permission`; otherwise audits the attempt and throws
 * a 403 AuthError. A subject that is signed in but not an operator (an end user) is refused too.
 */
export async function authorize(
  db: Db,
  subject: string | null | undefined,
  permission: Permission,
  target: Target,
  options: AuthorizeOptions = {},
): Promise<Operator> {
  if (!subject) throw new AuthError("sign-in required", 401);
  const operator = await loadOperator(db, subject);
  if (!operator) return deny(db, subject, permission, target, "not an active operator", options);
  if (!hasPermission(operator.roles, permission)) return deny(db, subject, permission, target, "role lacks permission", options);
  return operator;
}

/** Every operator, for the admins' operators page. */
export async function listOperators(db: Db) {
  return db.select().from(operators).orderBy(operators.subject);
}
