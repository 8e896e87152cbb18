"use server";

import { endSessionsAction } from "@/lib/auth/end-sessions-action";
import { controlFormAction } from "@/lib/controls/form-action";

export const endSessionsFormAction = async (_prev: unknown, form: FormData) => controlFormAction(endSessionsAction, form);
