// `ctl gates record --flow ID --gate G --passed|--failed --result FILE`: record evidence from a gate
// suite run elsewhere, as the operator proven by `ctl login`. `ctl gates run --flow ID`: run this project's own gate suites
// (vitest files, each against its own freshly started deployment) and record each outcome with the
// SHA-256 of its JSON result file. `ctl gates status --flow ID` shows what promotion would see.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { flows } from "@/db/schema";
import { AuthError, authorize } from "@/lib/auth/authorize";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { GATES, gateStatus, recordGateRun, type Gate } from "@/lib/policy/gates";
import { emit, parse } from "../args";
import { CliError, UsageError } from "../errors";
import { proveOperator } from "../operator-proof";
import { withStore } from "../store";

const USAGE = "usage: ctl gates status --flow ID | record --flow ID --gate GATE (--passed|--failed) --result FILE | run --flow ID [--as YOURSELF] [--json] (record and run need ctl login)";

// Which of this project's suites stand for which gate.
export const GATE_SUITES: Record<Gate, string[]> = {
  contract: ["tests/integration/engine-form.test.ts", "tests/integration/mcp-bearer.test.ts"],
  privacy: ["tests/unit/logger.test.ts", "tests/unit/vault.test.ts"],
  phishing: ["tests/unit/form-lint-fixtures.test.ts", "tests/integration/ctl-check-url.test.ts"],
  recovery: ["tests/integration/url-mode.test.ts"],
  accessibility: ["tests/e2e/url-mode.test.ts", "tests/e2e/sign-in.test.ts"],
};

export async function gatesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parse(rest, { flow: { type: "string" }, gate: { type: "string" }, passed: { type: "boolean" }, failed: { type: "boolean" }, result: { type: "string" }, as: { type: "string" }, json: { type: "boolean" } });
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
    try {
      await authorize(store.db, actor, PERMISSIONS.promotionRequest, { type: "flow", id: flow.id });
    } catch (err) {
      if (err instanceof AuthError) throw new CliError(`${actor} may not record gate evidence (${err.message})`);
      throw err;
    }
    if (sub === "record") {
      if (!GATES.includes(values.gate as Gate) || values.passed === values.failed || !values.result) throw new UsageError(USAGE);
      const hash = createHash("sha256").update(fs.readFileSync(values.result)).digest("hex");
      await recordGateRun(store.db, actor, { flowId: flow.id, gate: values.gate as Gate, passed: !!values.passed, resultHash: hash });
      emit(json, { ok: true, gate: values.gate, passed: !!values.passed, resultSha256: hash }, `recorded ${values.gate} ${values.passed ? "passed" : "failed"} (${hash.slice(0, 12)})`);
      return 0;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-"));
    const outcomes: Array<{ gate: Gate; passed: boolean }> = [];
    for (const gate of GATES) {
      const out = path.join(dir, `${gate}.json`);
      const files = GATE_SUITES[gate];
      const project = files[0]!.split("/")[1]!;
      const run = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", project, "--reporter=json", `--outputFile=${out}`, ...files], { stdio: "ignore", env: { ...process.env, AUDIT_EXPORT_ENTRIES: "1000" } });
      const passed = run.status === 0 && fs.existsSync(out);
      const hash = createHash("sha256").update(fs.existsSync(out) ? fs.readFileSync(out) : Buffer.from(`no result: exit ${run.status}`)).digest("hex");
      await recordGateRun(store.db, actor, { flowId: flow.id, gate, passed, resultHash: hash });
      outcomes.push({ gate, passed });
    }
    emit(json, { ok: outcomes.every((o) => o.passed), outcomes }, outcomes.map((o) => `${o.gate.padEnd(14)} ${o.passed ? "passed" : "FAILED"}`).join("\n"));
    return outcomes.every((o) => o.passed) ? 0 : 1;
  });
}
