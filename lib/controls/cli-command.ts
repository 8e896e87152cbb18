// The CLI adapter: `ctl <command> <sub> [POSITIONAL] --flag VALUE... [--as YOURSELF] [--json]`
// made from a control's declaration. Bad input is a usage error (exit 2) before anything is
// touched; who acts is the operator a `ctl login` proved (--as may only repeat it); the permission
// is checked and a refusal audited by the console's own core (lib/cli/as-operator.ts); an expected
// domain error is one line and exit 1. `--json` prints `{ ok: true, ...data }`.
import type { ParseArgsConfig } from "node:util";
import { z } from "zod";
import { AuthError } from "@/lib/auth/authorize";
import { emit, parse } from "@/lib/cli/args";
import { authorizeCli } from "@/lib/cli/as-operator";
import { CliError, UsageError } from "@/lib/cli/errors";
import { proveOperator } from "@/lib/cli/operator-proof";
import { withStore } from "@/lib/cli/store";
import type { ControlCli, OperatorControl } from "./control";

export function controlUsage(cli: ControlCli<never, never>): string {
  const positional = cli.positional ? ` ${cli.positional.name}` : "";
  const flags = Object.entries(cli.flags)
    .map(([flag, f]) => ` --${flag} ${f.value}`)
    .join("");
  return `usage: ctl ${cli.command.join(" ")}${positional}${flags} [--as YOURSELF] [--json] (needs ctl login)`;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "invalid input";
}

export async function runControlCommand<S extends z.ZodType, T extends object>(
  control: OperatorControl<S, T>,
  argv: string[],
): Promise<number> {
  const cli = control.cli;
  if (!cli) throw new UsageError(`${control.name} has no command`);
  const usage = controlUsage(cli as ControlCli<never, never>);
  const options: NonNullable<ParseArgsConfig["options"]> = { as: { type: "string" }, json: { type: "boolean" } };
  for (const flag of Object.keys(cli.flags)) options[flag] = { type: "string" };
  const { values, positionals } = parse(argv, options, true);
  if (positionals.length !== (cli.positional ? 1 : 0)) throw new UsageError(usage);
  // A null-prototype object: flag names are fixed by the declaration, but nothing here should
  // ever reach Object.prototype.
  const raw: Record<string, unknown> = Object.create(null);
  if (cli.positional) raw[cli.positional.field] = positionals[0];
  for (const [flag, { field }] of Object.entries(cli.flags)) if (values[flag] !== undefined) raw[field] = values[flag];
  const parsed = control.schema.safeParse({ ...raw });
  if (!parsed.success) throw new UsageError(`${firstIssue(parsed.error)}; ${usage}`);
  const asFlag = typeof values.as === "string" ? values.as : undefined;
  const subject = await proveOperator(asFlag);
  return withStore(`ctl ${cli.command.join(" ")}`, async (store) => {
    const operator = await authorizeCli(store.db, subject, control.permission, control.target(parsed.data));
    try {
      const data = await control.run({ db: store.db, operator, input: parsed.data });
      emit(values.json === true, { ok: true, ...data }, cli.human(data, parsed.data));
      return 0;
    } catch (err) {
      // Already audited where it was refused; the message is meant for the operator.
      if (err instanceof AuthError || control.expected?.some((E) => err instanceof E)) throw new CliError((err as Error).message);
      throw err;
    }
  });
}
