"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { removeClientProfileAction, setClientProfileAction } from "@/lib/policy/client-profile-actions";

export const setClientProfileFormAction = async (_prev: unknown, form: FormData) => controlFormAction(setClientProfileAction, form);
export const removeClientProfileFormAction = async (_prev: unknown, form: FormData) => controlFormAction(removeClientProfileAction, form);
