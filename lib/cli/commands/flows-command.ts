// `ctl flows list | canary FLOW --percent N --reason TEXT --as SUB | rollback (FLOW | --workflow NAME)
// --reason TEXT --as SUB`: the flow stages from the command line. A flow is `workflow:profile`;
// `--workflow` rolls back that workflow's flows for every client profile at once.
import { asc } from "drizzle-orm";
import { flows } from "@/db/schema";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { FLOW_ID_PATTERN } from "@/lib/policy/flow-actions";
import { PromotionError, rollbackFlow, rollbackWorkflow, setCanary } from "@/lib/policy/promotion";
import { emit, parse } from "../args";
import { asOperator } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { withStore } from "../store";

const USAGE =
  "usage: ctl flows list | canary FLOW --percent N --reason TEXT --as SUBJECT | rollback (FLOW | --workflow NAME) --reason TEXT --as SUBJECT [--json]";

export async function flowsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(
    rest,
    {
      percent: { type: "string" },
      workflow: { type: "string" },
      reason: { type: "string" },
      as: { type: "string" },
      json: { type: "boolean" },
    },
    true,
  );
  const json = values.json ?? false;
  if (sub === "list") {
    const rows = await withStore("ctl flows", (s) => s.db.select().from(flows).orderBy(asc(flows.workflow), asc(flows.profileId)));
    emit(
      json,
      {
        ok: true,
        flows: rows.map((f) => ({
          id: f.id,
          workflow: f.workflow,
          profile: f.profileId,
          stage: f.stage,
          canaryPercent: f.canaryPercent,
          retestRequired: f.retestRequired,
        })),
      },
      rows.map((f) => `${f.id.padEnd(48)} ${f.stage}${f.stage === "canary" ? ` ${f.canaryPercent}%` : ""}`).join("\n") || "no flows",
    );
    return 0;
  }
  if (sub !== "canary" && sub !== "rollback") throw new UsageError(sub ? `unknown flows command "${sub}"; ${USAGE}` : USAGE);
  const reason = values.reason?.trim();
  if (!reason || reason.length < 3 || reason.length > 200) throw new UsageError(`--reason (3 to 200 characters) is required; ${USAGE}`);
  const byWorkflow = sub === "rollback" && values.workflow !== undefined;
  if (byWorkflow ? positionals.length !== 0 : positionals.length !== 1) throw new UsageError(USAGE);
  const flowId = positionals[0];
  if (flowId !== undefined && !FLOW_ID_PATTERN.test(flowId))
    throw new UsageError("a flow id is workflow:profile (lower-case letters, digits, _ and -)");
  let percent: number | undefined;
  if (sub === "canary") {
    if (!values.percent || !/^(0|[1-9][0-9]?|100)$/.test(values.percent))
      throw new UsageError("--percent must be a whole number from 0 to 100");
    percent = Number(values.percent);
  }
  return withStore("ctl flows", async (store) => {
    try {
      if (sub === "canary") {
        const op = await asOperator(store.db, values.as, PERMISSIONS.promotionRequest, { type: "flow", id: flowId! }, USAGE);
        const r = await setCanary(store.db, op.subject, flowId!, percent!, reason);
        emit(json, { ok: true, ...r }, `${r.flowId} canary at ${r.canaryPercent}%`);
      } else if (byWorkflow) {
        const op = await asOperator(
          store.db,
          values.as,
          PERMISSIONS.flowRollback,
          { type: "workflow", id: values.workflow!.slice(0, 100) },
          USAGE,
        );
        const r = await rollbackWorkflow(store.db, op.subject, values.workflow!, reason);
        emit(json, { ok: true, ...r }, `rolled back ${r.flows.join(", ")}; ${r.revoked} unfinished handle(s) revoked`);
      } else {
        const op = await asOperator(store.db, values.as, PERMISSIONS.flowRollback, { type: "flow", id: flowId! }, USAGE);
        const r = await rollbackFlow(store.db, op.subject, flowId!, reason);
        emit(json, { ok: true, ...r }, `rolled back ${r.flowId}; ${r.revoked} unfinished handle(s) revoked`);
      }
      return 0;
    } catch (err) {
      if (err instanceof PromotionError) throw new CliError(err.message);
      throw err;
    }
  });
}
