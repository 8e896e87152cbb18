// `ctl revoke ID | --pending [--flow ID] --reason TEXT`: revoke unfinished handles, as the operator
// proven by `ctl login` (--as, if given, must name that operator).
import { PERMISSIONS } from "@/lib/auth/permissions";
import { isRecordId } from "@/lib/elicitation/records";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { emit, parse } from "../args";
import { authorizeCli } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { proveOperator } from "../operator-proof";
import { withStore } from "../store";

const USAGE = "usage: ctl revoke ID | --pending [--flow ID] --reason TEXT [--as YOURSELF] [--json] (needs ctl login)";

export async function revokeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      pending: { type: "boolean" },
      flow: { type: "string" },
      reason: { type: "string" },
      as: { type: "string" },
      json: { type: "boolean" },
    },
    true,
  );
  if (!values.reason || values.reason.trim().length < 3) throw new UsageError(`--reason (3 or more characters) is required; ${USAGE}`);
  if ((positionals.length === 0) === !values.pending || positionals.length > 1) throw new UsageError(USAGE);
  if (positionals[0] && !isRecordId(positionals[0])) throw new UsageError("a record id is 32 hex characters");
  const subject = await proveOperator(values.as);
  return withStore("ctl revoke", async (store) => {
    await authorizeCli(store.db, subject, PERMISSIONS.recordsRevoke, { type: "elicitation", id: positionals[0] ?? "pending" }, "revoke");
    const actor = { type: "operator" as const, id: subject };
    const ids = await revokeRecords(
      store.db,
      actor,
      positionals[0] ? { ids: [positionals[0]] } : { pending: { flowId: values.flow } },
      values.reason!.trim(),
    );
    if (positionals[0] && ids.length === 0) throw new CliError(`record ${positionals[0]} does not exist or is already finished`);
    emit(
      values.json ?? false,
      { ok: true, revoked: ids.length, ids },
      `revoked ${ids.length} unfinished handle${ids.length === 1 ? "" : "s"}`,
    );
    return 0;
  });
}
