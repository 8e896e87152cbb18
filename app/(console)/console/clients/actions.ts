"use server";

import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { removeClientProfileAction, setClientProfileAction } from "@/lib/policy/client-profile-actions";

export async function setClientProfileFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ clientId: string; profileId: string }>> {
  return (await runOperatorAction(setClientProfileAction, Object.fromEntries(form))).result;
}

export async function removeClientProfileFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ clientId: string }>> {
  return (await runOperatorAction(removeClientProfileAction, Object.fromEntries(form))).result;
}
