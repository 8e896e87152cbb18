// Who acts, for the commands that act as an operator: the operator proven by a fresh `ctl login`
// (lib/cli/operator-proof.ts), never a name typed on the command line; `--as` may only repeat that
// subject. Then the permission is checked (and a refusal audited) by the same core as the console
// (checkOperator in lib/auth/check-operator.ts). One place, so no command repeats the try/catch.
import type { Db } from "@/db/client";
import type { Operator, Target } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import { checkOperator } from "@/lib/auth/check-operator";
import { CliError } from "./errors";
import { proveOperator } from "./operator-proof";

/** The operator `subject` when it holds `permission`; otherwise a one-line "SUBJECT may not DOING (why)". */
export async function authorizeCli(db: Db, subject: string, permission: Permission, target: Target, doing = "do this"): Promise<Operator> {
  const check = await checkOperator(db, subject, permission, target);
  if (!check.ok) throw new CliError(`${subject} may not ${doing} (${check.error})`);
  return check.operator;
}

export async function asOperator(
  db: Db,
  asFlag: string | undefined,
  permission: Permission,
  target: Target,
  _usage: string,
): Promise<Operator> {
  return authorizeCli(db, await proveOperator(asFlag), permission, target);
}
