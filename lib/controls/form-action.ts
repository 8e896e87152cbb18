// The server-action adapter: a console form's fields become the control's input, and a success
// refreshes the paths the control declares. The `"use server"` files in app/ are one-liners over it.
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { ActionResult } from "@/lib/auth/action-result";
import type { OperatorControl } from "./control";
import { runControl } from "./run-control";

/** A form's own fields; React's `$ACTION_*` bookkeeping fields of a no-JavaScript submission are not input. */
export function formFields(form: FormData): Record<string, FormDataEntryValue> {
  return Object.fromEntries([...form.entries()].filter(([key]) => !key.startsWith("$ACTION")));
}

export async function controlFormAction<S extends z.ZodType, T>(control: OperatorControl<S, T>, form: FormData): Promise<ActionResult<T>> {
  const { result } = await runControl(control, (control.fromForm ?? formFields)(form));
  if (result.ok) for (const path of control.revalidate ?? []) revalidatePath(path);
  return result;
}
