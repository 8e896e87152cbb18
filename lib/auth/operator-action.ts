// The wrapper every console control goes through, whether called as a server action or from a
// route handler: authenticate, parse with zod, check the permission on the server (auditing a
// denial), then run the service, which writes its own audit entry in its own transaction.
import { z } from "zod";
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import { AuthError, authorize, type Operator, type Target } from "./authorize";
import type { ActionResult } from "./action-result";
import type { Permission } from "./permissions";
import { currentUser } from "./session";

export interface OperatorActionSpec<S extends z.ZodType, T> {
  permission: Permission;
  schema: S;
  target: (input: z.infer<S>) => Target;
  run: (ctx: { db: Db; operator: Operator; input: z.infer<S> }) => Promise<T>;
  /** Domain errors whose message is safe and useful to show next to the control. */
  expected?: Array<new (...args: never[]) => Error>;
}

export type OperatorActionOutcome<T> = { status: 200 | 400 | 401 | 403 | 409 | 500 | 503; result: ActionResult<T> };

export async function runOperatorAction<S extends z.ZodType, T>(spec: OperatorActionSpec<S, T>, raw: unknown): Promise<OperatorActionOutcome<T>> {
  try {
    return await runChecked(spec, raw);
  } catch (err) {
    // The store refusing work (unreachable, read-only, out of disk) rolled the transaction back:
    // say so next to the control instead of failing the page or pretending it took effect.
    const failure = storeFailureOf(err);
    if (!failure) throw err;
    return { status: 503, result: { ok: false, error: `Not changed: ${storeFailureText(failure)}. Nothing was saved; try again when it is back.` } };
  }
}

async function runChecked<S extends z.ZodType, T>(spec: OperatorActionSpec<S, T>, raw: unknown): Promise<OperatorActionOutcome<T>> {
  const user = await currentUser();
  if (!user) return { status: 401, result: { ok: false, error: "sign-in required" } };
  const db = await getDb();
  const parsed = spec.schema.safeParse(raw);
  // Permission first, so a caller without it learns nothing about valid input, and is audited.
  const targetGuess: Target = parsed.success ? spec.target(parsed.data) : { type: "console", id: "invalid-input" };
  let operator: Operator;
  try {
    operator = await authorize(db, user.sub, spec.permission, targetGuess);
  } catch (err) {
    if (err instanceof AuthError) return { status: err.status, result: { ok: false, error: err.message } };
    throw err;
  }
  if (!parsed.success) {
    return { status: 400, result: { ok: false, error: "invalid input", fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> } };
  }
  try {
    return { status: 200, result: { ok: true, data: await spec.run({ db, operator, input: parsed.data }) } };
  } catch (err) {
    // A service may check a narrower permission itself (approvals check the approver role by the
    // approval's kind); its refusal, already audited, is a 403 like the one above.
    if (err instanceof AuthError) return { status: err.status, result: { ok: false, error: err.message } };
    if (spec.expected?.some((E) => err instanceof E)) return { status: 409, result: { ok: false, error: (err as Error).message } };
    throw err;
  }
}
