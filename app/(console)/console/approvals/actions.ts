"use server";

import { decideAction } from "@/lib/approvals/decide-action";
import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";

// No revalidation: the decided item keeps showing its outcome until the next visit.
export async function decideFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ state: string }>> {
  return (await runOperatorAction(decideAction, Object.fromEntries(form))).result;
}
