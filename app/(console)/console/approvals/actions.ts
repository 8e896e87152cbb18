"use server";

import { decideAction } from "@/lib/approvals/decide-action";
import { controlFormAction } from "@/lib/controls/form-action";

// No revalidation (the control declares none): the decided item keeps showing its outcome until the next visit.
export const decideFormAction = async (_prev: unknown, form: FormData) => controlFormAction(decideAction, form);
