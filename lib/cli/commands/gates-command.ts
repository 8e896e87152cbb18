// `ctl gates record --flow ID --gate G --passed|--failed --result FILE`: record evidence from a gate
// suite run elsewhere, as the operator proven by `ctl login`. `ctl gates run --flow ID [--target URL]`: drive the flow's five
// gates against the deployment (lib/gates), store the signed evidence and record each gate with its
// SHA-256. `ctl gates status --flow ID` shows what promotion would see.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { flows } from "@/db/schema";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { loadSigner } from "@/lib/audit/signing";
import { appUrl } from "@/lib/auth/oidc-config";
import type { GateTarget } from "@/lib/gates/target";
import { GATES, gateStatus, recordGateRun, type Gate } from "@/lib/policy/gates";
import { emit, parse } from "../args";
import { authorizeCli } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { proveOperator } from "../operator-proof";
import { withStore } from "../store";

const USAGE = "usage: ctl gates status --flow ID | record --flow ID --gate GATE (--passed|--failed) --result FILE | run --flow ID [--target URL] [--log-file FILE] [--token T] [--as YOURSELF] [--json] (record and run need ctl login)";

export async function gatesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parse(rest, { flow: { type: "string" }, gate: { type: "string" }, passed: { type: "boolean" }, failed: { type: "boolean" }, result: { type: "string" }, as: { type: "string" }, json: { type: "boolean" }, target: { type: "string" }, "log-file": { type: "string" }, token: { type: "string" } });
  const json = values.json ?? false;
  if (!values.flow || !["status", "record", "run"].includes(sub ?? "")) throw new UsageError(USAGE);
  const subject = sub === "status" ? undefined : await proveOperator(values.as);
  return withStore("ctl gates", async (store) => {
    const [flow] = await store.db.select().from(flows).where(eq(flows.id, values.flow!)).limit(1);
    if (!flow) throw new CliError(`flow ${values.flow} does not exist`);
    if (sub === "status") {
      const states = await gateStatus(store.db, flow);
      emit(json, { ok: true, flow: flow.id, stage: flow.stage, fingerprint: flow.fingerprint, gates: states }, states.map((s) => `${s.gate.padEnd(14)} ${s.status}`).join("\n"));
      return 0;
    }
    const actor = subject!;
    await authorizeCli(store.db, actor, PERMISSIONS.promotionRequest, { type: "flow", id: flow.id }, "record gate evidence");
    if (sub === "record") {
      if (!GATES.includes(values.gate as Gate) || values.passed === values.failed || !values.result) throw new UsageError(USAGE);
      const hash = createHash("sha256").update(fs.readFileSync(values.result)).digest("hex");
      await recordGateRun(store.db, actor, { flowId: flow.id, gate: values.gate as Gate, passed: !!values.passed, resultHash: hash });
      emit(json, { ok: true, gate: values.gate, passed: !!values.passed, resultSha256: hash }, `recorded ${values.gate} ${values.passed ? "passed" : "failed"} (${hash.slice(0, 12)})`);
      return 0;
    }
    // The gates drive the flow against the target themselves (lib/gates): nothing under tests/.
    // Loaded only here: the SDK clients, the identity provider and the browser driver are heavy,
    // and the identity provider warns on stderr when loaded, which other commands must not print.
    const { chromiumPathFrom } = await import("@/lib/gates/browser");
    const { GateRunError, runGates } = await import("@/lib/gates/run-gates");
    const target: GateTarget = {
      baseUrl: new URL(values.target ?? appUrl()).origin,
      mcpUrl: `${new URL(values.target ?? appUrl()).origin}/api/mcp`,
      db: store.db,
      logFile: values["log-file"],
      metricsToken: process.env.METRICS_TOKEN || undefined,
      chromiumPath: chromiumPathFrom(),
    };
    let run;
    try {
      run = await runGates(store.db, { flowId: flow.id, actor, target, signer: loadSigner(), token: values.token ?? (process.env.GATES_ACCESS_TOKEN || undefined) });
    } catch (err) {
      if (err instanceof GateRunError) throw new CliError(err.message);
      throw err;
    }
    const lines = run.evidence.gates.map((g) => `${g.gate.padEnd(14)} ${g.outcome.replace(/_/g, " ")}${g.reason ? `: ${g.reason}` : ""}`);
    emit(json, { ok: run.evidence.passed, evidenceSha256: run.hash, evidence: run.evidence }, [...lines, `evidence ${run.hash}`].join("\n"));
    return run.evidence.passed ? 0 : 1;
  });
}
