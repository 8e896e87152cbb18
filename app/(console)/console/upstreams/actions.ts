"use server";

import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { addUpstreamAction, removeUpstreamAction } from "@/lib/gateway/upstream-actions";
import { upstreamFromForm } from "@/lib/gateway/upstream-form";

export async function addUpstreamFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ id: string }>> {
  return (await runOperatorAction(addUpstreamAction, upstreamFromForm(form))).result;
}

export async function removeUpstreamFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ id: string }>> {
  return (await runOperatorAction(removeUpstreamAction, { id: form.get("id") })).result;
}
