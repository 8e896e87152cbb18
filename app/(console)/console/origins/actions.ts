"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { addOriginAction, disableOriginAction } from "@/lib/policy/origin-actions";

export async function addOriginFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ origin: string; redirectUris: string[] }>> {
  const { result } = await runOperatorAction(addOriginAction, Object.fromEntries(form));
  if (result.ok) revalidatePath("/console/origins");
  return result;
}

export async function disableOriginFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ origin: string }>> {
  const { result } = await runOperatorAction(disableOriginAction, Object.fromEntries(form));
  if (result.ok) revalidatePath("/console/origins");
  return result;
}
