// Who acts, for the governance commands (flows, client-profiles): the operator proven by a fresh
// `ctl login` (lib/cli/operator-proof.ts), never a name typed on the command line; `--as` may only
// repeat that subject. Then the permission is checked (and a refusal audited) exactly like the
// console. One place, so every command that acts as an operator gets the same proof.
import type { Db } from "@/db/client";
import { AuthError, authorize, type Operator, type Target } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import { CliError } from "./errors";
import { proveOperator } from "./operator-proof";

export async function asOperator(db: Db, asFlag: string | undefined, permission: Permission, target: Target, _usage: string): Promise<Operator> {
  const subject = await proveOperator(asFlag);
  try {
    return await authorize(db, subject, permission, target);
  } catch (err) {
    if (err instanceof AuthError) throw new CliError(`${subject} may not do this (${err.message})`);
    throw err;
  }
}
