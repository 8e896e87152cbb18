"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { addOriginAction, disableOriginAction } from "@/lib/policy/origin-actions";

export const addOriginFormAction = async (_prev: unknown, form: FormData) => controlFormAction(addOriginAction, form);
export const disableOriginFormAction = async (_prev: unknown, form: FormData) => controlFormAction(disableOriginAction, form);
