// `ctl flows pause FLOW --minutes N --reason TEXT`, made by the generic adapter from the control's
// declaration (lib/policy/flow-pause.ts), in a child process the way an operator runs it: a
// releaser pauses (audited, shown by `ctl kill-switch status`), other roles are refused (exit 1,
// audited), bad input is a usage error (exit 2), an unknown flow a failure (exit 1), and none of
// those changes anything.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Db } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { auditLog, killSwitches } from "@/db/schema";
import { runCli as runCliRaw } from "../helpers/cli";
import { writeOperatorSession } from "../helpers/operator-session";
import { createPostgresDatabase, requirePostgresInCi } from "../helpers/test-store";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-ctl-pause-"));
let env: Record<string, string | undefined>;
let config: StoreConfig;
let dropDb: (() => Promise<void>) | undefined;
const FLOW = "generate_report:claude-code";

beforeAll(async () => {
  requirePostgresInCi();
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    dropDb = created.drop;
    env = { DATABASE_URL: created.url, DATA_DIR: tmp };
    config = { kind: "postgres", url: created.url, poolMax: 2 };
  } else {
    env = { DATABASE_URL: "", DATA_DIR: path.join(tmp, "data") };
    config = { kind: "pglite", dataDir: path.join(tmp, "data", "pglite") };
  }
  expect((await runCli(["migrate"], env)).code).toBe(0);
  expect((await runCli(["seed-demo", "--records", "0"], env)).code).toBe(0);
});
afterAll(async () => {
  await dropDb?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs ctl signed in as the operator `--as` names (the session file `ctl login` leaves), else signed out. */
async function runCli(args: string[], e: Record<string, string | undefined>) {
  const i = args.indexOf("--as");
  const who = i >= 0 ? args[i + 1] : undefined;
  const sessionEnv = { ...e, CTL_SESSION_FILE: path.join(tmp, `session-${who ?? "nobody"}.json`) };
  if (who) await writeOperatorSession(sessionEnv, who);
  return runCliRaw(args, sessionEnv);
}

async function inStore<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  try {
    return await fn(store.db);
  } finally {
    await store.close();
  }
}
const snapshot = () =>
  inStore(async (db) => ({
    switches: await db.select().from(killSwitches).orderBy(killSwitches.scope),
    audit: (await db.select({ n: count() }).from(auditLog))[0]!.n,
  }));
const deniedCount = (subject: string) =>
  inStore(
    async (db) =>
      (
        await db
          .select({ n: count() })
          .from(auditLog)
          .where(and(eq(auditLog.action, "access.denied"), eq(auditLog.actorId, subject), eq(auditLog.targetId, FLOW)))
      )[0]!.n,
  );

describe("ctl flows pause", () => {
  it("is listed by ctl help", async () => {
    const help = await runCli(["help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("flows pause FLOW --minutes N --reason TEXT [--as YOURSELF] [--json] (needs ctl login)");
  });

  it("refuses bad input as a usage error and an unknown flow as a failure, changing nothing", async () => {
    const before = await snapshot();
    const as = ["--as", "op-releaser-0003"];
    for (const args of [
      ["--minutes", "0", "--reason", "maintenance"],
      ["--minutes=-5", "--reason", "maintenance"],
      ["--minutes", "1.5", "--reason", "maintenance"],
      ["--minutes", "99999999999999999999", "--reason", "maintenance"],
      ["--minutes", "ten", "--reason", "maintenance"],
      ["--minutes", "5"],
      ["--minutes", "5", "--reason", "maintenance", "--__proto__", "x"],
    ]) {
      const r = await runCli(["flows", "pause", FLOW, ...args, ...as], env);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^ctl: .*usage: ctl flows pause FLOW|^ctl: Unknown option '--__proto__'/);
    }
    expect((await runCli(["flows", "pause", "--minutes", "5", "--reason", "maintenance", ...as], env)).code).toBe(2);
    expect((await runCli(["flows", "pause", "__proto__", "--minutes", "5", "--reason", "maintenance", ...as], env)).code).toBe(2);
    const unknown = await runCli(
      ["flows", "pause", "generate_report:no-such-profile", "--minutes", "5", "--reason", "maintenance", ...as],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('ctl: no flow is called "generate_report:no-such-profile": check the id (ctl flows list)\n');
    expect(await snapshot()).toEqual(before);
  });

  it("refuses every role but releaser and admin (audited), and anyone without a login", async () => {
    const before = await snapshot();
    for (const subject of ["op-viewer-0006", "op-operator-0002", "op-approver-0004", "op-auditor-0005"]) {
      const denied = await deniedCount(subject);
      const r = await runCli(["flows", "pause", FLOW, "--minutes", "5", "--reason", "not mine to pause", "--as", subject], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`ctl: ${subject} may not do this (forbidden: flow.rollback is not granted)\n`);
      expect(await deniedCount(subject)).toBe(denied + 1);
    }
    const anonymous = await runCliRaw(["flows", "pause", FLOW, "--minutes", "5", "--reason", "who am i"], {
      ...env,
      CTL_SESSION_FILE: path.join(tmp, "nobody-signed-in.json"),
    });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/ctl login/);
    const after = await snapshot();
    expect(after.switches).toEqual(before.switches);
  });

  it("a releaser pauses a flow: audited, and shown by ctl kill-switch status with its end", async () => {
    const r = await runCli(
      ["flows", "pause", FLOW, "--minutes", "30", "--reason", "maintenance window", "--as", "op-releaser-0003", "--json"],
      env,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; flowId: string; pausedUntil: string; revoked: number; message: string };
    expect(out).toMatchObject({ ok: true, flowId: FLOW, revoked: 0 });
    expect(Object.keys(out).sort()).toEqual(["flowId", "message", "ok", "pausedUntil", "revoked"]);
    const audit = await inStore((db) =>
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "kill_switch.on"), eq(auditLog.targetId, `flow:${FLOW}`))),
    );
    expect(audit.map((a) => ({ actor: a.actorId, detail: a.detail }))).toEqual([
      {
        actor: "op-releaser-0003",
        detail: { reason: "paused for 30 min: maintenance window", expires_at: out.pausedUntil, paused_minutes: 30 },
      },
    ]);
    const status = await runCli(["kill-switch", "status"], env);
    expect(status.stdout).toContain(
      `ENGAGED flow:${FLOW}: paused for 30 min: maintenance window (by op-releaser-0003, until ${out.pausedUntil})`,
    );
    const human = await runCli(["flows", "pause", FLOW, "--minutes", "45", "--reason", "longer window", "--as", "op-admin-0001"], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(`^${FLOW} paused until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC; 0 unfinished handle\\(s\\) revoked\\n$`),
    );
  });
});
