"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { revokeAction } from "@/lib/elicitation/revoke-actions";

export async function revokeFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ revoked: number }>> {
  const { result } = await runOperatorAction(revokeAction, { ids: form.getAll("ids"), reason: form.get("reason") });
  if (result.ok) revalidatePath("/console/records");
  return result;
}
