// `ctl approvals list | approve ID | reject ID --reason TEXT`: the approval queue from the command
// line. The approver is the operator proven by `ctl login` (--as, if given, must name them), is
// checked like in the console, and never approves their own request.
import { z } from "zod";
import { AuthError } from "@/lib/auth/authorize";
import { ApprovalError, decideApproval, pendingApprovals } from "@/lib/approvals/decide";
import { emit, parse } from "../args";
import { CliError, UsageError } from "../errors";
import { proveOperator } from "../operator-proof";
import { withStore } from "../store";

const USAGE = "usage: ctl approvals list | approve ID | reject ID --reason TEXT [--as YOURSELF] [--json] (needs ctl login)";

export async function approvalsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, { reason: { type: "string" }, as: { type: "string" }, json: { type: "boolean" } }, true);
  const json = values.json ?? false;
  if (sub === "list") {
    const rows = await withStore("ctl approvals", (s) => pendingApprovals(s.db));
    emit(
      json,
      { ok: true, pending: rows },
      rows.length
        ? rows
            .map((a) => `${a.id}  ${a.kind}  ${a.action}  requested by ${a.requestedBy} at ${a.createdAt.toISOString()}: ${a.reason}`)
            .join("\n")
        : "no pending approvals",
    );
    return 0;
  }
  if (sub !== "approve" && sub !== "reject") throw new UsageError(sub ? `unknown approvals command "${sub}"; ${USAGE}` : USAGE);
  if (positionals.length !== 1 || !values.reason) throw new UsageError(USAGE);
  const subject = await proveOperator(values.as);
  return withStore("ctl approvals", async (store) => {
    try {
      const row = await decideApproval(store.db, subject, { id: positionals[0]!, decision: sub, reason: values.reason! });
      emit(json, { ok: true, id: row.id, state: row.state }, `${row.id} ${row.state}`);
      return 0;
    } catch (err) {
      if (err instanceof ApprovalError || err instanceof AuthError) throw new CliError(err.message);
      if (err instanceof z.ZodError)
        throw new UsageError("approval id must look like apr_<16 hex> and the reason needs 3 to 200 characters");
      throw err;
    }
  });
}
