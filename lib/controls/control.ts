// An operator control is one declaration: who may use it (permission), what it takes (a zod
// schema), what it acts on (target, for the audit entry of a refusal), what its service writes to
// the audit log, the service itself, what to refresh after it, and how it appears on the command
// line and in the console. Generic adapters make the server action (form-action.ts), the route
// handler (route-handler.ts) and the CLI command (cli-command.ts) from it, all through
// requireOperator/checkOperator (lib/auth/require-operator.ts).
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { AuditAction } from "@/lib/audit/actions";
import type { Operator, Target } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";

/** A `ctl` command made from the control: `ctl <command[0]> <command[1]> [POSITIONAL] --flag VALUE... [--as SUB] [--json]`. */
export interface ControlCli<I, T> {
  command: readonly [string, string];
  summary: string;
  /** The input field the one positional argument fills. */
  positional?: { field: string; name: string };
  /** Flag name (without --) to the input field it fills and the placeholder shown in usage. Every flag takes a value. */
  flags: Readonly<Record<string, { field: string; value: string }>>;
  /** The human line; `--json` prints `{ ok: true, ...data }`. */
  human: (data: T, input: I) => string;
}

/** A field of the generic console form (components/control-form.tsx). */
export interface ControlField {
  name: string;
  label: string;
  kind: "text" | "number";
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
}

/** Where the console shows the control: on a page, once per row, the row's id in `rowField`. */
export interface ControlFormSpec {
  page: string;
  rowField: string;
  title: string;
  submit: string;
  fields: readonly ControlField[];
}

export interface OperatorControl<S extends z.ZodType, T> {
  /** Stable kebab-case id: the console form names the control by it. */
  name: string;
  permission: Permission;
  schema: S;
  target: (input: z.infer<S>) => Target;
  /** The audit actions the service writes, in the same transaction as its change. */
  audit: readonly AuditAction[];
  run: (ctx: { db: Db; operator: Operator; input: z.infer<S> }) => Promise<T>;
  /** Domain errors whose message is safe and useful to show next to the control (409). */
  expected?: Array<new (...args: never[]) => Error>;
  /** Console paths to refresh after a success. */
  revalidate?: readonly string[];
  /** How a console form becomes the input; default: its fields as an object. */
  fromForm?: (form: FormData) => unknown;
  cli?: ControlCli<z.infer<S>, T>;
  form?: ControlFormSpec;
}

// Erased element type for lists of controls (the registry): each keeps its own types where declared.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyControl = OperatorControl<z.ZodType, any>;
