// `ctl check-url URL [--dev]`: prints {"verdict","host","unicodeHost","reasons"} and exits
// 0 allow, 3 warn, 1 block, 2 usage error.
import { checkUrl } from "@/lib/policy/url-check";
import { parse } from "../args";
import { UsageError } from "../errors";
import { writeOut } from "../output";

export async function checkUrlCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { dev: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError('check-url takes exactly one URL; run "ctl help" for usage');
  const result = checkUrl(positionals[0]!, { dev: values.dev ?? false });
  writeOut(JSON.stringify(result) + "\n");
  return result.verdict === "allow" ? 0 : result.verdict === "warn" ? 3 : 1;
}
