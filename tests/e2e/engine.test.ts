// Acceptance (the governed endpoint), against the running production build with the SDK client:
// the kill switch flipped by `ctl` from another process blocks the next generate_report within a
// second and says why, and releasing it restores service; planted canary values in accepted
// answers are found nowhere afterwards: not in a database dump, the logs, the audit log or an export.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { ctlLogin } from "../helpers/ctl-login";
import { connectClient, type TestClient } from "../helpers/mcp-client";
import { signIn } from "../helpers/sign-in";

const CANARY = `CANARY-${Date.now().toString(36)}-7f3a9c`;
const env = () => inject("appEnv");
let client: TestClient;
const browser = useBrowser();

async function token(subject: string): Promise<string> {
  const r = await runCli(["token", "--subject", subject], env());
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

beforeAll(async () => {
  client = await connectClient(`${inject("baseUrl")}/api/mcp`, await token("user-alice-1001"), {
    name: "e2e-engine",
    capabilities: { elicitation: { form: {} } },
    answer: () => ({ action: "accept", content: { environment: "staging", format: "pdf", title: CANARY } }),
  });
});
afterAll(async () => {
  await client?.close();
});

describe("governed endpoint against the running app", () => {
  it("completes a form elicitation whose answer carries a canary value", async () => {
    const r = await client.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "completed", report: { title: CANARY } });
  });

  it("blocks the very next call after `ctl kill-switch on` in another process, and is restored by two operators", async () => {
    const on = await runCli(["kill-switch", "on", "--scope", "global", "--reason", "e2e incident drill"], env());
    expect(on.code).toBe(0);
    // The first call after the command returns is refused: the engine re-reads the switch (the
    // notification or the read-through) before deciding. Propagation time is a benchmark
    // (bench/kill-switch-propagation.ts), not a test bound.
    const blocked = await client.call("generate_report");
    expect(blocked.isError).toBe(true);
    expect(blocked.text).toMatch(/kill switch global is engaged \(stopped by an operator\)/);
    expect(blocked.text).not.toContain("e2e incident drill");
    const status = await runCli(["kill-switch", "status", "--json"], env());
    expect((JSON.parse(status.stdout).active as Array<{ scope: string }>).filter((s) => s.scope === "global")).toEqual([
      expect.objectContaining({ scope: "global", changedBy: "ctl" }),
    ]);

    // Releasing needs two different operators, each proven by `ctl login` (device flow at the provider).
    const sessions = fs.mkdtempSync(path.join(os.tmpdir(), "eg-e2e-ctl-"));
    const asOperator = (who: string) => ({ ...env(), CTL_SESSION_FILE: path.join(sessions, `${who}.json`) });
    expect((await ctlLogin("operator", asOperator("operator"))).code).toBe(0);
    expect((await runCli(["kill-switch", "off", "--reason", "drill over"], asOperator("operator"))).stdout).toMatch(
      /release of global requested/,
    );
    expect((await client.call("generate_report")).isError).toBe(true);
    expect((await ctlLogin("admin", asOperator("admin"))).code).toBe(0);
    expect((await runCli(["kill-switch", "off", "--reason", "drill over"], asOperator("admin"))).stdout).toMatch(/released/);
    fs.rmSync(sessions, { recursive: true, force: true });
    expect((await client.call("generate_report")).structured).toMatchObject({ outcome: "completed" });
  });

  it("rejects an invalid answer carrying a canary without keeping it", async () => {
    const bad = await connectClient(`${inject("baseUrl")}/api/mcp`, await token("user-bob-1002"), {
      name: "e2e-engine",
      capabilities: { elicitation: {} },
      answer: () => ({ action: "accept", content: { environment: CANARY, format: "pdf", [CANARY]: CANARY } }),
    });
    const r = await bad.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "invalid" });
    await bad.close();
  });

  it("leaves the canary nowhere: database, logs, audit log, evidence export", async () => {
    // Database: a full dump (PostgreSQL) or every byte of the embedded store's files (PGlite).
    const appEnv = env();
    if (appEnv.DATABASE_URL) {
      const dump = execFileSync("pg_dump", ["--data-only", appEnv.DATABASE_URL], { maxBuffer: 512 * 1024 * 1024 }).toString();
      expect(dump).toContain("generate_report");
      expect(dump).not.toContain(CANARY);
    } else {
      let scanned = 0;
      for (const file of fs.readdirSync(path.join(appEnv.DATA_DIR!, "pglite"), { recursive: true, withFileTypes: true })) {
        if (!file.isFile()) continue;
        const bytes = fs.readFileSync(path.join(file.parentPath, file.name));
        scanned += bytes.length;
        expect(bytes.includes(Buffer.from(CANARY)), `${file.name}`).toBe(false);
      }
      expect(scanned).toBeGreaterThan(1_000_000);
    }
    // Logs: everything the server printed during the run.
    const log = fs.readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toContain(CANARY);
    // Audit log, read through the console API by an auditor.
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, inject("baseUrl"), "auditor");
    const audit = await (await page.request.get(`${inject("baseUrl")}/api/console/audit?limit=500`)).text();
    expect(audit).toContain("kill_switch.on");
    expect(audit).not.toContain(CANARY);
    await context.close();
    // Evidence export (over the control channel when the demo holds the embedded store).
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "eg-canary-export-"));
    const exported = await runCli(["audit", "export", "--out", out, "--force"], appEnv);
    expect(exported.code).toBe(0);
    const data = fs.readFileSync(path.join(out, "audit.ndjson"), "utf8");
    expect(data).toContain("kill_switch.off");
    expect(data).not.toContain(CANARY);
    expect((await runCli(["audit", "verify", out], {})).code).toBe(0);
  });
});
