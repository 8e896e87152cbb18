"use server";

import { revalidatePath } from "next/cache";
import { runOperatorAction } from "@/lib/auth/operator-action";
import type { ActionResult } from "@/lib/auth/action-result";
import { killSwitchAction } from "@/lib/policy/kill-switch-actions";

export async function killSwitchFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ state: string; scope: string }>> {
  const { result } = await runOperatorAction(killSwitchAction, Object.fromEntries(form));
  if (result.ok) revalidatePath("/console");
  return result;
}
