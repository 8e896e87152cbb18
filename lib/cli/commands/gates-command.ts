// `ctl gates run --flow ID [--target URL]`, as the operator proven by `ctl login`: drive the flow's
// five gates against the deployment (lib/gates), store the signed evidence and record each gate with
// its SHA-256. `ctl gates status --flow ID` shows what promotion would see. There is deliberately no
// way to record a gate result by hand: a gate passes only on evidence the gates themselves signed.
import { eq } from "drizzle-orm";
import { flows } from "@/db/schema";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { loadSigner } from "@/lib/audit/signing";
import { appUrl } from "@/lib/auth/oidc-config";
import type { GateTarget } from "@/lib/gates/target";
import { gateStatus } from "@/lib/policy/gates";
import { emit, parse } from "../args";
import { authorizeCli } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { proveOperator } from "../operator-proof";
import { withStore } from "../store";

const USAGE =
  "usage: ctl gates status --flow ID | run --flow ID [--target URL] [--log-file FILE] [--token T] [--approver-session FILE] [--as YOURSELF] [--json] (run needs ctl login)";

export async function gatesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parse(rest, {
    flow: { type: "string" },
    as: { type: "string" },
    json: { type: "boolean" },
    target: { type: "string" },
    "log-file": { type: "string" },
    token: { type: "string" },
    "approver-session": { type: "string" },
  });
  const json = values.json ?? false;
  if (!values.flow || !["status", "run"].includes(sub ?? "")) throw new UsageError(USAGE);
  const subject = sub === "status" ? undefined : await proveOperator(values.as);
  return withStore("ctl gates", async (store) => {
    const [flow] = await store.db.select().from(flows).where(eq(flows.id, values.flow!)).limit(1);
    if (!flow) throw new CliError(`flow ${values.flow} does not exist`);
    if (sub === "status") {
      const states = await gateStatus(store.db, flow);
      emit(
        json,
        { ok: true, flow: flow.id, stage: flow.stage, fingerprint: flow.fingerprint, gates: states },
        states.map((s) => `${s.gate.padEnd(14)} ${s.status}${s.reason ? `: ${s.reason}` : ""}`).join("\n"),
      );
      return 0;
    }
    const actor = subject!;
    await authorizeCli(store.db, actor, PERMISSIONS.promotionRequest, { type: "flow", id: flow.id }, "run gates");
    // The gates drive the flow against the target themselves (lib/gates): nothing under tests/.
    // Loaded only here: the SDK clients, the identity provider and the browser driver are heavy,
    // and the identity provider warns on stderr when loaded, which other commands must not print.
    const { gateTargetFor } = await import("@/lib/gates/target-from-settings");
    const { GateRunError, runGates } = await import("@/lib/gates/run-gates");
    const { approverFromSessionFile } = await import("@/lib/gates/approver");
    // The same places, settings and budget as a run from the console; --log-file overrides GATES_LOG_FILE.
    const target: GateTarget = gateTargetFor({ origin: values.target ?? appUrl(), db: store.db, logFile: values["log-file"] });
    // The second operator who decides the approval steps: proven by their own `ctl login` session file.
    let approver;
    try {
      approver = values["approver-session"] ? await approverFromSessionFile(values["approver-session"]) : undefined;
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    let run;
    try {
      run = await runGates(store.db, {
        flowId: flow.id,
        actor,
        target,
        signer: loadSigner(),
        token: values.token ?? (process.env.GATES_ACCESS_TOKEN || undefined),
        ...(approver ? { approver } : {}),
      });
    } catch (err) {
      if (err instanceof GateRunError) throw new CliError(err.message);
      throw err;
    }
    const lines = run.evidence.gates.map((g) => `${g.gate.padEnd(14)} ${g.outcome.replace(/_/g, " ")}${g.reason ? `: ${g.reason}` : ""}`);
    emit(
      json,
      { ok: run.evidence.passed, evidenceSha256: run.hash, evidence: run.evidence },
      [...lines, `evidence ${run.hash}`].join("\n"),
    );
    return run.evidence.passed ? 0 : 1;
  });
}
