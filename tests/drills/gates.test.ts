// Acceptance for issue 21: `ctl gates run` drives each flow's gates against a production-build
// deployment. Different flows get different evidence; the approval flow passes with a second
// operator deciding through the product; the URL flow runs at the demo's seeded 20% canary share
// (a gate tester inside it); a deployment started with deliberate defects (GATE_TEST_FAULTS) fails
// the gate that should catch each one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openStore } from "@/db/client";
import { flows } from "@/db/schema";
import { approverFromSessionFile } from "@/lib/gates/approver";
import { runGates } from "@/lib/gates/run-gates";
import { gateTargetFor } from "@/lib/gates/target-from-settings";
import { loadSigner } from "@/lib/audit/signing";
import { evidenceByHash } from "@/lib/gates/evidence";
import { runCli } from "../helpers/cli";
import { ctlLogin } from "../helpers/ctl-login";
import { useInstance } from "./drill-env";

type Get = ReturnType<typeof useInstance>;

function deploymentEnv(get: Get, instanceEnv: Record<string, string>): Record<string, string | undefined> {
  const { dep, app } = get();
  return { ...dep.secrets, ...instanceEnv, DATA_DIR: dep.dataDir, DATABASE_URL: dep.databaseUrl, APP_URL: app.baseUrl };
}

/** A second operator's own `ctl login` session file (the approver of approval steps). */
async function approverSession(get: Get, instanceEnv: Record<string, string>, login = "approver"): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-approver-")), "session.json");
  expect((await ctlLogin(login, { ...deploymentEnv(get, instanceEnv), CTL_SESSION_FILE: file })).code).toBe(0);
  return file;
}

function gateRun(get: Get, instanceEnv: Record<string, string>, flowId: string, logFile: string, approverFile?: string) {
  const { dep, app } = get();
  const env = deploymentEnv(get, instanceEnv);
  Object.assign(process.env, dep.secrets, { DATA_DIR: dep.dataDir, APP_URL: app.baseUrl });
  return (async () => {
    const store = await openStore(
      dep.databaseUrl
        ? { kind: "postgres", url: dep.databaseUrl, poolMax: 2 }
        : { kind: "pglite", dataDir: path.join(dep.dataDir, "pglite") },
      { purpose: "gates test" },
    );
    try {
      // The flow as the demo seeds it: no canary share is raised for the gate.
      const [flow] = await store.db.select().from(flows).where(eq(flows.id, flowId));
      const target = gateTargetFor({ origin: app.baseUrl, db: store.db, logFile }, env);
      const approver = approverFile ? await approverFromSessionFile(approverFile, { ...env, CTL_SESSION_FILE: approverFile }) : undefined;
      const run = await runGates(store.db, {
        flowId,
        actor: "op-releaser-0003",
        target,
        signer: loadSigner(),
        ...(approver ? { approver } : {}),
      });
      return { ...run, flow: flow!, stored: await evidenceByHash(store.db, run.hash) };
    } finally {
      await store.close();
    }
  })();
}

function logTo(get: Get): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-log-")), "app.log");
  const { app } = get();
  const out = fs.createWriteStream(file);
  app.child.stdout!.pipe(out);
  app.child.stderr!.pipe(out);
  return file;
}

type Run = Awaited<ReturnType<typeof gateRun>>;
const gate = (r: Run, name: string) => r.evidence.gates.find((g) => g.gate === name)!;
const passed = (r: Run, name: string) =>
  gate(r, name)
    .checks.filter((c) => c.outcome === "passed")
    .map((c) => `${c.name} | ${c.variant ?? ""}`);
const notPassing = (r: Run) =>
  r.evidence.gates.filter((g) => !["passed", "not_applicable"].includes(g.outcome)).map((g) => `${g.gate}: ${g.reason}`);

describe.runIf(process.env.DATABASE_URL)("gates against a healthy deployment", () => {
  // A form timeout short enough for the contract gate to wait it out.
  const instanceEnv = { LOG_LEVEL: "info", ELICITATION_TIMEOUT_SECONDS: "8" };
  const get = useInstance(instanceEnv);
  it("gives generate_report:claude-code and list_repositories:visual-studio-code different evidence, both passing at the seeded shares", async () => {
    const log = logTo(get);
    const report = await gateRun(get, instanceEnv, "generate_report:claude-code", log);
    const repos = await gateRun(get, instanceEnv, "list_repositories:visual-studio-code", log);
    // The URL flow is gated at the demo's 20% share, as seeded (no share raised for the gate).
    expect([repos.flow.stage, repos.flow.canaryPercent]).toEqual(["canary", 20]);
    for (const r of [report, repos]) expect(notPassing(r)).toEqual([]);
    expect(gate(report, "recovery").outcome).toBe("not_applicable");
    expect(gate(repos, "recovery").outcome).toBe("passed");
    expect(report.evidence.clientProfile.variants.map((v) => v.elicitation)).toContainEqual({});
    expect(report.stored?.document).toContain(report.evidence.runId);
    expect(report.hash).not.toBe(repos.hash);
    // Not vacuous: the checks that tell the two flows apart ran and passed.
    expect(passed(report, "contract")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^form accept ends completed \| claude-code .* @ 2025-11-25/),
        expect.stringMatching(/^form accept ends completed \| claude-code .* @ 2026-07-28/),
        expect.stringMatching(/^client disconnect mid-form ends cancelled.*2025-11-25/),
        expect.stringMatching(/^form nobody answers ends timed_out.*2025-11-25/),
      ]),
    );
    expect(gate(report, "contract").checks.find((c) => c.name.startsWith("form nobody answers") && c.outcome === "passed")!.detail).toMatch(
      /waited out the deployment's 8 s timeout/,
    );
    expect(passed(repos, "contract")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^URL accept ends connect_pending \| Visual Studio Code/)]),
    );
    expect(passed(report, "privacy")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^search store/),
        expect.stringMatching(/^search audit log/),
        expect.stringMatching(/^search fresh evidence export/),
        expect.stringMatching(/^search log file/),
        expect.stringMatching(/^search metrics endpoint/),
      ]),
    );
    expect(gate(report, "privacy").checks.find((c) => c.name === "search traces")).toMatchObject({
      outcome: "not_applicable",
      detail: expect.stringMatching(/exports no traces/),
    });
    expect(passed(repos, "recovery")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^another browser user opening the link is refused/),
        expect.stringMatching(/^second retry without the notification uses the one grant/),
        expect.stringMatching(/^accept lost, retry before the person opens the link/),
        expect.stringMatching(/^retry while the person is at the provider/),
        expect.stringMatching(/^the person finishes, the retry after completion uses the one grant: one record, one grant/),
      ]),
    );
  });

  it("passes the approval flow purge_report_cache:claude-code with a second operator deciding, so it can be promoted on the evidence", async () => {
    const run = await gateRun(get, instanceEnv, "purge_report_cache:claude-code", logTo(get), await approverSession(get, instanceEnv));
    expect(notPassing(run)).toEqual([]);
    expect(gate(run, "recovery").outcome).toBe("passed");
    expect(passed(run, "recovery").map((c) => c.split(" | ")[0])).toEqual([
      "retry before the decision: the same request, nothing done",
      "approval decision lost: the approver decides again and is refused; decided once",
      "retries after the decision: executed exactly once",
      "retries racing the decision: executed exactly once",
    ]);
    expect(passed(run, "contract")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^approval step: no form/), expect.stringMatching(/^rejected by the second operator/)]),
    );
    expect(gate(run, "accessibility")).toMatchObject({ outcome: "not_applicable", reason: expect.stringMatching(/opens no page/) });
    // The decisions are the approver's own, audited by the product (not the releaser's).
    expect(gate(run, "contract").checks.find((c) => c.name.startsWith("rejected by"))!.detail).toMatch(/op-approver-0004/);
  });

  it("runs as `ctl gates run --target --approver-session` against the deployment, as the releaser signed in with ctl login; the releaser cannot be the approver", async () => {
    const env = {
      ...deploymentEnv(get, instanceEnv),
      CTL_SESSION_FILE: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "eg-gates-ctl-")), "session.json"),
    };
    expect((await ctlLogin("releaser", env)).code).toBe(0);
    const approver = await approverSession(get, instanceEnv);
    const { app } = get();
    const r = await runCli(
      [
        "gates",
        "run",
        "--flow",
        "purge_report_cache:claude-code",
        "--target",
        app.baseUrl,
        "--log-file",
        logTo(get),
        "--approver-session",
        approver,
        "--as",
        "op-releaser-0003",
        "--json",
      ],
      env,
    );
    const out = JSON.parse(r.stdout) as {
      ok: boolean;
      evidenceSha256: string;
      evidence: { gates: Array<{ gate: string; outcome: string; reason: string | null }> };
    };
    expect(out.evidence.gates.map((g) => g.gate)).toEqual(["contract", "privacy", "phishing", "accessibility", "recovery"]);
    expect(out.evidence.gates.filter((g) => !["passed", "not_applicable"].includes(g.outcome))).toEqual([]);
    expect([out.ok, r.code]).toEqual([true, 0]);
    const status = await runCli(["gates", "status", "--flow", "purge_report_cache:claude-code", "--json"], env);
    expect(JSON.parse(status.stdout).gates.map((g: { status: string }) => g.status)).toEqual(out.evidence.gates.map(() => "passed"));
    // Two people: the releaser's own session as the approver is refused before anything runs.
    const self = await runCli(
      [
        "gates",
        "run",
        "--flow",
        "purge_report_cache:claude-code",
        "--target",
        app.baseUrl,
        "--approver-session",
        env.CTL_SESSION_FILE,
        "--as",
        "op-releaser-0003",
      ],
      env,
    );
    expect(self.code).not.toBe(0);
    expect(self.stderr).toMatch(/approver must be another operator/);
  });
});

describe.runIf(process.env.DATABASE_URL)("gates against a deployment that logs form values", () => {
  const instanceEnv = { LOG_LEVEL: "info", GATE_TEST_FAULTS: "log-form-values" };
  const get = useInstance(instanceEnv);
  it("fails privacy, naming the log file", async () => {
    const run = await gateRun(get, instanceEnv, "generate_report:claude-code", logTo(get));
    const privacy = gate(run, "privacy");
    expect(privacy.outcome).toBe("failed");
    expect(privacy.reason).toMatch(/log file/);
  });
});

describe.runIf(process.env.DATABASE_URL)("gates against a deployment that skips the browser-user check", () => {
  const instanceEnv = { GATE_TEST_FAULTS: "skip-browser-user-check" };
  const get = useInstance(instanceEnv);
  it("fails recovery", async () => {
    const run = await gateRun(get, instanceEnv, "list_repositories:visual-studio-code", logTo(get));
    const recovery = gate(run, "recovery");
    expect(recovery.outcome).toBe("failed");
    expect(recovery.reason).toMatch(/another browser user/);
  });
});

describe.runIf(process.env.DATABASE_URL)("gates against a deployment with the three defects the new checks catch", () => {
  // One deployment, three independent defects, each in a different flow or step.
  const instanceEnv = {
    LOG_LEVEL: "info",
    ELICITATION_TIMEOUT_SECONDS: "5",
    GATE_TEST_FAULTS: "new-record-on-retry,timeout-not-recorded,approval-not-consumed",
  };
  const get = useInstance(instanceEnv);
  it("a retried URL call that opens a second record fails recovery at the lost accept", async () => {
    const run = await gateRun(get, instanceEnv, "list_repositories:visual-studio-code", logTo(get));
    const recovery = gate(run, "recovery");
    expect(recovery.outcome).toBe("failed");
    expect(recovery.reason).toMatch(/^accept lost, retry before the person opens the link.*(another link|records for the one connect)/);
  });
  it("a timed-out form left open fails contract at the timeout", async () => {
    const run = await gateRun(get, instanceEnv, "generate_report:claude-code", logTo(get));
    const contract = gate(run, "contract");
    expect(contract.outcome).toBe("failed");
    expect(contract.reason).toMatch(/^form nobody answers ends timed_out.*told timed_out but the record is sent/);
  });
  it("an approval that is not consumed fails recovery: executed more than once", async () => {
    const run = await gateRun(get, instanceEnv, "purge_report_cache:claude-code", logTo(get), await approverSession(get, instanceEnv));
    const recovery = gate(run, "recovery");
    expect(recovery.outcome).toBe("failed");
    expect(recovery.reason).toMatch(/^retries after the decision: executed exactly once.*executed the action again/);
  });
});
