// `ctl config check`: prints the effective configuration (secrets masked: only whether they are
// set) and every problem, and exits 1 when there is one, so a deployment pipeline can run it
// before rolling out. It reads the environment only: no store, no network.
import { configReport } from "@/lib/config/effective";
import { parse } from "../args";
import { CliError, UsageError } from "../errors";
import { writeOut } from "../output";

export async function configCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "check") throw new UsageError("usage: ctl config check [--json]");
  const { values } = parse(rest, { json: { type: "boolean" } });
  const report = configReport(process.env);
  if (values.json) {
    writeOut(JSON.stringify(report, null, 2) + "\n");
  } else {
    const width = Math.max(...report.settings.map((s) => s.name.length));
    for (const s of report.settings) writeOut(`${s.name.padEnd(width)}  ${s.shown}\n`);
    for (const w of report.warnings) writeOut(`warning: ${w}\n`);
    for (const p of report.problems) writeOut(`problem: ${p.message}\n`);
    writeOut(
      report.problems.length
        ? `${report.problems.length} problem(s): the server will not start with this configuration\n`
        : "configuration ok\n",
    );
  }
  if (report.problems.length)
    throw new CliError(report.problems[0]!.message + (report.problems.length > 1 ? ` (and ${report.problems.length - 1} more)` : ""));
  return 0;
}
