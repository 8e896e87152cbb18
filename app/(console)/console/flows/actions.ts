"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { gateRunAction } from "@/lib/gates/run-action";
import { flowAction, workflowRollbackAction } from "@/lib/policy/flow-actions";

export const flowFormAction = async (_prev: unknown, form: FormData) => controlFormAction(flowAction, form);
export const workflowRollbackFormAction = async (_prev: unknown, form: FormData) => controlFormAction(workflowRollbackAction, form);
export const gateRunFormAction = async (_prev: unknown, form: FormData) => controlFormAction(gateRunAction, form);
