// The controls reached by name: the generic `ctl` commands (lib/cli/dispatch.ts) and the generic
// console forms (components/control-form.tsx, one server action in app/(console)/console/
// control-actions.ts). A control declared with `cli` or `form` and listed here needs no other
// file: no wrapper, no route, no command of its own.
import type { Role } from "@/lib/auth/permissions";
import { hasPermission } from "@/lib/auth/permissions";
import { pauseFlowControl } from "@/lib/policy/flow-pause";
import type { AnyControl, ControlField } from "./control";

export const REGISTERED_CONTROLS: readonly AnyControl[] = [pauseFlowControl];

const byName = new Map(REGISTERED_CONTROLS.map((c) => [c.name, c]));

/** The control behind `ctl COMMAND SUB`, if one is declared. */
export function cliControl(command: string | undefined, sub: string | undefined): AnyControl | undefined {
  return REGISTERED_CONTROLS.find((c) => c.cli && c.cli.command[0] === command && c.cli.command[1] === sub);
}

export interface ConsoleControlForm {
  name: string;
  title: string;
  submit: string;
  rowField: string;
  fields: ControlField[];
}

/** The forms a page shows to someone with these roles: plain data for a client component. */
export function consoleControlForms(page: string, roles: readonly Role[]): ConsoleControlForm[] {
  return REGISTERED_CONTROLS.filter((c) => c.form?.page === page && hasPermission(roles, c.permission)).map((c) => ({
    name: c.name,
    title: c.form!.title,
    submit: c.form!.submit,
    rowField: c.form!.rowField,
    fields: [...c.form!.fields],
  }));
}

/** A registered control by its name; undefined for anything else (a name comes from the browser). */
export function controlByName(name: unknown): AnyControl | undefined {
  return typeof name === "string" ? byName.get(name) : undefined;
}
