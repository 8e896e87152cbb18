// `ctl lint-schema FILE`: the engine's form linter for server authors' CI. FILE holds form params
// ({ message, requestedSchema }). Prints the verdict as JSON; exit 0 allow, 1 block, 2 unreadable.
import fs from "node:fs";
import { lintFormRequest } from "@/lib/elicitation/lint";
import { parse } from "../args";
import { CliError, UsageError } from "../errors";

export async function lintSchemaCommand(argv: string[]): Promise<number> {
  const { positionals } = parse(argv, {}, true);
  if (positionals.length !== 1) throw new UsageError('lint-schema takes exactly one FILE; run "ctl help" for usage');
  let input: unknown;
  try {
    input = JSON.parse(fs.readFileSync(positionals[0]!, "utf8"));
  } catch (err) {
    const why = err instanceof SyntaxError ? "not valid JSON" : ((err as NodeJS.ErrnoException).code ?? "unreadable");
    throw new CliError(`cannot read ${positionals[0]}: ${why}`, 2);
  }
  const result = lintFormRequest(input);
  process.stdout.write(JSON.stringify(result) + "\n");
  return result.verdict === "allow" ? 0 : 1;
}
