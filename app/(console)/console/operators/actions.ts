"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult } from "@/lib/auth/action-result";
import { endSessionsAction } from "@/lib/auth/end-sessions-action";
import { runOperatorAction } from "@/lib/auth/operator-action";

export async function endSessionsFormAction(_prev: unknown, form: FormData): Promise<ActionResult<{ ended: number }>> {
  const { result } = await runOperatorAction(endSessionsAction, Object.fromEntries(form));
  if (result.ok) revalidatePath("/console/operators");
  return result;
}
