// The one server action behind every generic console form (components/control-form.tsx): the
// control is looked up by name in the registry (registry.ts), kept apart from it so the CLI, which
// reads the registry, does not load Next.js.
import type { ActionResult } from "@/lib/auth/action-result";
import { controlFormAction } from "./form-action";
import { controlByName } from "./registry";

/**
 * Runs a registered control from a console form. The name and the form come from the browser, so
 * both are checked: an unknown name or a body that is not a form is refused before anything runs;
 * the permission is checked by the control itself (requireOperator), never by which form was shown.
 */
export async function runRegisteredControl(name: unknown, form: unknown): Promise<ActionResult<unknown>> {
  const control = controlByName(name);
  if (!control || !control.form) return { ok: false, error: "no such control" };
  if (!(form instanceof FormData)) return { ok: false, error: "invalid input" };
  return controlFormAction(control, form);
}
