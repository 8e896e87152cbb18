// Acceptance for issue 21: `ctl gates run` drives each flow's gates against a production-build
// deployment. Different flows get different evidence; a deployment started with a deliberate
// defect (GATE_TEST_FAULTS) fails the gate that should catch it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "@/db/client";
import { runGates } from "@/lib/gates/run-gates";
import { setCanary } from "@/lib/policy/promotion";
import { loadSigner } from "@/lib/audit/signing";
import { evidenceByHash } from "@/lib/gates/evidence";
import { runCli } from "../helpers/cli";
import { ctlLogin } from "../helpers/ctl-login";
import { useInstance } from "./drill-env";

function gateRun(get: ReturnType<typeof useInstance>, flowId: string, logFile: string) {
  const { dep, app } = get();
  Object.assign(process.env, dep.secrets, { DATA_DIR: dep.dataDir, APP_URL: app.baseUrl });
  return (async () => {
    const store = await openStore(dep.databaseUrl ? { kind: "postgres", url: dep.databaseUrl, poolMax: 2 } : { kind: "pglite", dataDir: path.join(dep.dataDir, "pglite") }, { purpose: "gates test" });
    try {
      // As a releaser gating on staging would: a share large enough that the test users are in it.
      if (flowId.startsWith("list_repositories")) await setCanary(store.db, "op-releaser-0003", flowId, 100, "gate the URL flow with the browser test users");
      const target = { baseUrl: app.baseUrl, mcpUrl: `${app.baseUrl}/api/mcp`, db: store.db, logFile, metricsToken: dep.secrets.METRICS_TOKEN, chromiumPath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" };
      const run = await runGates(store.db, { flowId, actor: "op-releaser-0003", target, signer: loadSigner() });
      return { ...run, stored: await evidenceByHash(store.db, run.hash) };
    } finally {
      await store.close();
    }
  })();
}

function logTo(get: ReturnType<typeof useInstance>): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-log-")), "app.log");
  const { app } = get();
  const out = fs.createWriteStream(file);
  app.child.stdout!.pipe(out);
  app.child.stderr!.pipe(out);
  return file;
}

describe.runIf(process.env.DATABASE_URL)("gates against a healthy deployment", () => {
  const get = useInstance({ LOG_LEVEL: "info" });
  it("gives generate_report:claude-code and list_repositories:visual-studio-code different evidence, both passing", async () => {
    const log = logTo(get);
    const report = await gateRun(get, "generate_report:claude-code", log);
    const repos = await gateRun(get, "list_repositories:visual-studio-code", log);
    for (const r of [report, repos]) expect(r.evidence.gates.filter((g) => !["passed", "not_applicable"].includes(g.outcome)).map((g) => `${g.gate}: ${g.reason}`)).toEqual([]);
    expect(report.evidence.gates.find((g) => g.gate === "recovery")!.outcome).toBe("not_applicable");
    expect(repos.evidence.gates.find((g) => g.gate === "recovery")!.outcome).toBe("passed");
    expect(report.evidence.clientProfile.variants.map((v) => v.elicitation)).toContainEqual({});
    expect(report.stored?.document).toContain(report.evidence.runId);
    expect(report.hash).not.toBe(repos.hash);
    // Not vacuous: the checks that tell the two flows apart ran and passed.
    const passed = (r: typeof report, gate: string) => r.evidence.gates.find((g) => g.gate === gate)!.checks.filter((c) => c.outcome === "passed").map((c) => `${c.name} | ${c.variant ?? ""}`);
    expect(passed(report, "contract")).toEqual(expect.arrayContaining([expect.stringMatching(/^form accept ends completed \| claude-code .* @ 2025-11-25/), expect.stringMatching(/^form accept ends completed \| claude-code .* @ 2026-07-28/), expect.stringMatching(/^client disconnect mid-form ends cancelled.*2025-11-25/)]));
    expect(passed(repos, "contract")).toEqual(expect.arrayContaining([expect.stringMatching(/^URL accept ends connect_pending \| Visual Studio Code/)]));
    expect(passed(report, "privacy")).toEqual(expect.arrayContaining([expect.stringMatching(/^search store/), expect.stringMatching(/^search fresh evidence export/), expect.stringMatching(/^search log file/), expect.stringMatching(/^search metrics endpoint/)]));
    expect(passed(repos, "recovery")).toEqual(expect.arrayContaining([expect.stringMatching(/^another browser user opening the link is refused/), expect.stringMatching(/^second retry without the notification uses the one grant/)]));
  });

  it("runs as `ctl gates run --target` against the deployment, as the releaser signed in with ctl login", async () => {
    const { dep, app } = get();
    const env = { ...dep.secrets, DATA_DIR: dep.dataDir, DATABASE_URL: dep.databaseUrl, APP_URL: app.baseUrl, CTL_SESSION_FILE: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-ctl-")), "session.json") };
    expect((await ctlLogin("releaser", env)).code).toBe(0);
    const r = await runCli(["gates", "run", "--flow", "generate_report:claude-code", "--target", app.baseUrl, "--as", "op-releaser-0003", "--json"], env);
    const out = JSON.parse(r.stdout) as { ok: boolean; evidenceSha256: string; evidence: { gates: Array<{ gate: string; outcome: string }> } };
    expect(out.evidence.gates.map((g) => g.gate)).toEqual(["contract", "privacy", "phishing", "accessibility", "recovery"]);
    expect(r.code).toBe(out.ok ? 0 : 1);
    const status = await runCli(["gates", "status", "--flow", "generate_report:claude-code", "--json"], env);
    expect(JSON.parse(status.stdout).gates.map((g: { status: string }) => g.status)).toEqual(out.evidence.gates.map(() => expect.stringMatching(/passed|failed/)));
  });
});

describe.runIf(process.env.DATABASE_URL)("gates against a deployment that logs form values", () => {
  const get = useInstance({ LOG_LEVEL: "info", GATE_TEST_FAULTS: "log-form-values" });
  it("fails privacy, naming the log file", async () => {
    const run = await gateRun(get, "generate_report:claude-code", logTo(get));
    const privacy = run.evidence.gates.find((g) => g.gate === "privacy")!;
    expect(privacy.outcome).toBe("failed");
    expect(privacy.reason).toMatch(/log file/);
  });
});

describe.runIf(process.env.DATABASE_URL)("gates against a deployment that skips the browser-user check", () => {
  const get = useInstance({ GATE_TEST_FAULTS: "skip-browser-user-check" });
  it("fails recovery", async () => {
    const run = await gateRun(get, "list_repositories:visual-studio-code", logTo(get));
    const recovery = run.evidence.gates.find((g) => g.gate === "recovery")!;
    expect(recovery.outcome).toBe("failed");
    expect(recovery.reason).toMatch(/another browser user/);
  });
});
