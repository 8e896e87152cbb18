// `ctl upstreams` in a child process, as an operator runs it: only admins change the registry, a
// bad file or flag is a usage error that changes nothing, `apply` is idempotent (the second run
// adds, updates, removes and audits nothing), and `list` never prints a secret value.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Db } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { auditLog, upstreams } from "@/db/schema";
import { runCli as runCliRaw } from "../helpers/cli";
import { writeOperatorSession } from "../helpers/operator-session";
import { createPostgresDatabase, requirePostgresInCi } from "../helpers/test-store";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-ctl-upstreams-"));
let env: Record<string, string | undefined>;
let config: StoreConfig;
let dropDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  requirePostgresInCi();
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    dropDb = created.drop;
    env = { DATABASE_URL: created.url, DATA_DIR: tmp, UPSTREAM_SECRET_TICKETS: "never-printed-secret-value" };
    config = { kind: "postgres", url: created.url, poolMax: 2 };
  } else {
    env = { DATABASE_URL: "", DATA_DIR: path.join(tmp, "data"), UPSTREAM_SECRET_TICKETS: "never-printed-secret-value" };
    config = { kind: "pglite", dataDir: path.join(tmp, "data", "pglite") };
  }
  expect((await runCli(["migrate"], env)).code).toBe(0);
  expect((await runCli(["seed-demo", "--records", "0"], env)).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await dropDb?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

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

const file = (name: string, body: unknown) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, typeof body === "string" ? body : JSON.stringify(body));
  return p;
};

const TICKETS = { id: "tickets", displayName: "Tickets", url: "https://tickets.example.com/mcp", auth: { kind: "header", header: "Authorization", secretEnv: "UPSTREAM_SECRET_TICKETS", prefix: "Bearer " }, tenants: ["acme"], exposedTools: ["*"], urlOrigins: ["https://tickets.example.com"] };

describe("ctl upstreams", () => {
  it("apply as an admin is idempotent; the second run changes and audits nothing", async () => {
    const f = file("ok.json", { upstreams: [TICKETS] });
    const first = await runCli(["upstreams", "apply", f, "--as", "op-admin-0001", "--json"], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, added: ["tickets"] });
    const audited = async () => (await inStore((db) => db.select().from(auditLog).where(like(auditLog.action, "upstream.%")))).length;
    const before = await audited();
    const second = await runCli(["upstreams", "apply", f, "--as", "op-admin-0001", "--json"], env);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, added: [], updated: [], removed: [], unchanged: ["tickets"] });
    expect(await audited()).toBe(before);
    const list = await runCli(["upstreams", "list", "--json"], env);
    expect(list.stdout).toContain("UPSTREAM_SECRET_TICKETS");
    expect(list.stdout).not.toContain("never-printed-secret-value");
  }, 120_000);

  it("a non-admin is refused and nothing changes", async () => {
    const r = await runCli(["upstreams", "remove", "tickets", "--as", "op-operator-0002"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may not/);
    expect(await inStore((db) => db.select().from(upstreams))).toHaveLength(1);
  }, 120_000);

  it.each([
    ["an SSRF-ish URL", { upstreams: [{ ...TICKETS, url: "http://169.254.169.254/latest" }] }],
    ["a prototype key", '{"upstreams":[],"__proto__":{"polluted":true}}'],
    ["an app secret named as the credential", { upstreams: [{ ...TICKETS, auth: { kind: "header", header: "Authorization", secretEnv: "SESSION_SECRET" } }] }],
    ["not JSON", "{upstreams: ["],
  ])("%s is a usage error that changes nothing", async (_label, body) => {
    const r = await runCli(["upstreams", "apply", file("bad.json", body), "--as", "op-admin-0001"], env);
    expect(r.code).toBe(2);
    expect(await inStore((db) => db.select().from(upstreams))).toHaveLength(1);
  }, 120_000);
});
