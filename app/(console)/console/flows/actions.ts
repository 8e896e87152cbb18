"use server";

import type { ActionResult } from "@/lib/auth/action-result";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { gateRunAction } from "@/lib/gates/run-action";
import { flowAction, workflowRollbackAction } from "@/lib/policy/flow-actions";

export async function flowFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ message: string }>> {
  return (await runOperatorAction(flowAction, Object.fromEntries(form))).result;
}

export async function workflowRollbackFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ message: string }>> {
  return (await runOperatorAction(workflowRollbackAction, Object.fromEntries(form))).result;
}

export async function gateRunFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ message: string }>> {
  return (await runOperatorAction(gateRunAction, Object.fromEntries(form))).result;
}
