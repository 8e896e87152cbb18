"use server";

import { controlFormAction } from "@/lib/controls/form-action";
import { revokeAction } from "@/lib/elicitation/revoke-actions";

export const revokeFormAction = async (_prev: unknown, form: FormData) => controlFormAction(revokeAction, form);
