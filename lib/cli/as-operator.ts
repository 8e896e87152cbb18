// `--as SUBJECT` for the governance commands: the subject must be an active operator holding the
// permission, checked (and a refusal audited) exactly like the console does. One place, so a
// stronger proof of who `--as` is applies to every command that uses it.
import type { Db } from "@/db/client";
import { AuthError, authorize, type Operator, type Target } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import { CliError, UsageError } from "./errors";

export async function asOperator(db: Db, subject: string | undefined, permission: Permission, target: Target, usage: string): Promise<Operator> {
  if (!subject) throw new UsageError(`--as SUBJECT is required; ${usage}`);
  try {
    return await authorize(db, subject, permission, target);
  } catch (err) {
    if (err instanceof AuthError) throw new CliError(`${subject} may not do this (${err.message})`);
    throw err;
  }
}
