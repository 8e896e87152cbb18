"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { killSwitchAction } from "@/lib/policy/kill-switch-actions";

export const killSwitchFormAction = async (_prev: unknown, form: FormData) => controlFormAction(killSwitchAction, form);
