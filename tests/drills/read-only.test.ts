// Drill: the database turns read-only (what a failed-over replica, a full disk's emergency mode
// or an operator's freeze looks like to the app). The MCP tool, a console control and `ctl` each
// report the failure plainly; nothing is half-done (no record, no kill switch, no audit entry);
// when the database takes writes again, service resumes with the audit chain intact.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { freePort, prepareDeployment, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { tokenMinter } from "../../bench/load";
import { useBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { connectClient, type TestClient } from "../helpers/mcp-client";
import { signIn } from "../helpers/sign-in";
import { postgresUrl } from "./drill-env";

let dep: Deployment;
let app: Instance;
let admin: postgres.Sql;
let client: TestClient;
const browser = useBrowser();

async function setReadOnly(on: boolean) {
  const db = new URL(dep.databaseUrl!).pathname.slice(1);
  await admin.unsafe(`alter database "${db}" ${on ? "set default_transaction_read_only = on" : "reset default_transaction_read_only"}`);
  // Existing sessions keep their setting: end them, so the app's pool reconnects under the new one.
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${db} and pid <> pg_backend_pid()`;
}

async function callUntil(match: RegExp) {
  // The first call after the sessions were ended may see the closed connection itself.
  for (let i = 0; i < 5; i++) {
    const r = await client.call("generate_report");
    if (match.test(r.text)) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
  return client.call("generate_report");
}

async function counts() {
  const [row] =
    await admin`select (select count(*) from elicitation_records)::int as records, (select count(*) from audit_log)::int as audit, (select count(*) from kill_switches where active)::int as switches`;
  return row;
}

describe.skipIf(!postgresUrl)("drill: read-only database", () => {
  beforeAll(async () => {
    const port = await freePort();
    dep = await prepareDeployment(`http://localhost:${port}`, { postgres: postgresUrl });
    app = await startInstance(dep, { port });
    admin = postgres(dep.databaseUrl!, { max: 1, onnotice: () => {} });
    client = await connectClient(`${app.baseUrl}/api/mcp`, await tokenMinter(dep.dataDir, app.baseUrl)("user-alice-1001"), {
      name: "drill-read-only",
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: { environment: "staging", format: "csv" } }),
    });
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await admin?.end();
    await app?.stop();
    await dep?.dispose();
  });

  it("reports the failure from every entry point, changes nothing, and resumes afterwards", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, app.baseUrl, "operator");
    expect((await client.call("generate_report")).structured).toMatchObject({ outcome: "completed" });
    const before = await counts();

    await setReadOnly(true);
    const tool = await callUntil(/read-only/);
    expect(tool.isError).toBe(true);
    expect(tool.text).toBe("Not done: the database is read-only. Nothing was done; retry in a moment.");
    expect(tool.structured).toEqual({ outcome: "store_unavailable" });

    const control = await page.request.post(`${app.baseUrl}/api/console/kill-switch`, {
      data: { scope: "global", action: "engage", reason: "read-only drill" },
      headers: { origin: app.baseUrl },
    });
    expect(control.status()).toBe(503);
    expect(await control.json()).toEqual({
      ok: false,
      error: "Not changed: the database is read-only. Nothing was saved; try again when it is back.",
    });

    const ctl = await runCli(["kill-switch", "on", "--scope", "global", "--reason", "read-only drill"], {
      DATABASE_URL: dep.databaseUrl,
      DATA_DIR: dep.dataDir,
      APP_URL: app.baseUrl,
    });
    expect(ctl.code).not.toBe(0);
    expect(ctl.stderr).toMatch(/not done: the database is read-only; nothing was changed/);

    // Reads still work: the console shows the kill switch is not engaged.
    const status = await page.request.get(`${app.baseUrl}/api/console/kill-switch`);
    expect(await status.json()).toEqual({ ok: true, data: [] });
    expect(await counts()).toEqual(before);

    await setReadOnly(false);
    expect((await callUntil(/generated/)).structured).toMatchObject({ outcome: "completed" });
    const after = await counts();
    expect(after).toMatchObject({ records: before!.records + 1, switches: 0 });
    const store = await dep.open();
    try {
      expect(await verifyStoredChain(store.db)).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
    await context.close();
  });
});
