"use server";

import { decideAction } from "@/lib/approvals/decide-action";
import type { ActionResult } from "@/lib/auth/action-result";
import { AuthError } from "@/lib/auth/authorize";
import { runOperatorAction } from "@/lib/auth/operator-action";

export async function decideFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ state: string }>> {
  try {
    // No revalidation here: the decided item keeps showing its outcome until the next visit.
    const { result } = await runOperatorAction(decideAction, Object.fromEntries(form));
    return result;
  } catch (err) {
    // decideApproval's own permission check (approver role) refuses with 403 and audits it.
    if (err instanceof AuthError) return { ok: false, error: err.message };
    throw err;
  }
}
