// Runs a control for a browser caller (server action or route handler): parse, check the
// permission on the server (auditing a denial, before saying anything about the input), run the
// service, which writes its audit entry in its own transaction; map what can go wrong to a status.
import { z } from "zod";
import type { ActionResult } from "@/lib/auth/action-result";
import { AuthError, type Target } from "@/lib/auth/authorize";
import { requireOperator, storeRefusal } from "@/lib/auth/require-operator";
import type { OperatorControl } from "./control";

export type ControlOutcome<T> = { status: 200 | 400 | 401 | 403 | 409 | 500 | 503; result: ActionResult<T> };

export async function runControl<S extends z.ZodType, T>(control: OperatorControl<S, T>, raw: unknown): Promise<ControlOutcome<T>> {
  try {
    return await runChecked(control, raw);
  } catch (err) {
    const refusal = storeRefusal(err);
    if (!refusal) throw err;
    return { status: 503, result: { ok: false, error: refusal } };
  }
}

async function runChecked<S extends z.ZodType, T>(control: OperatorControl<S, T>, raw: unknown): Promise<ControlOutcome<T>> {
  const parsed = control.schema.safeParse(raw);
  // Permission first, so a caller without it learns nothing about valid input, and is audited.
  const target: Target = parsed.success ? control.target(parsed.data) : { type: "console", id: "invalid-input" };
  const access = await requireOperator(control.permission, target);
  if (!access.ok) return { status: access.status, result: { ok: false, error: access.error } };
  if (!parsed.success) {
    return {
      status: 400,
      result: { ok: false, error: "invalid input", fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> },
    };
  }
  try {
    return { status: 200, result: { ok: true, data: await control.run({ db: access.db, operator: access.operator, input: parsed.data }) } };
  } catch (err) {
    // A service may check a narrower permission itself (approvals check the approver role by the
    // approval's kind); its refusal, already audited, is a 403 like the one above.
    if (err instanceof AuthError) return { status: err.status, result: { ok: false, error: err.message } };
    if (control.expected?.some((E) => err instanceof E)) return { status: 409, result: { ok: false, error: (err as Error).message } };
    throw err;
  }
}
