// `ctl upstreams` in a child process, as an operator runs it: only admins change the registry, a
// bad file or flag is a usage error that changes nothing, `apply` is idempotent (the second run
// adds, updates, removes and audits nothing), and `list` never prints a secret value.
import fs from "node:fs";
import path from "node:path";
import { like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, upstreams } from "@/db/schema";
import { useCtlStore } from "../helpers/ctl-store";

const ctl = useCtlStore({ tmpPrefix: "eg-ctl-upstreams-", env: { UPSTREAM_SECRET_TICKETS: "never-printed-secret-value" } });
const { tmp, runCli, inStore } = ctl;

const file = (name: string, body: unknown) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, typeof body === "string" ? body : JSON.stringify(body));
  return p;
};

const TICKETS = {
  id: "tickets",
  displayName: "Tickets",
  url: "https://tickets.example.com/mcp",
  auth: { kind: "header", header: "Authorization", secretEnv: "UPSTREAM_SECRET_TICKETS", prefix: "Bearer " },
  tenants: ["acme"],
  exposedTools: ["*"],
  urlOrigins: ["https://tickets.example.com"],
};

describe("ctl upstreams", () => {
  it("apply as an admin is idempotent; the second run changes and audits nothing", async () => {
    const f = file("ok.json", { upstreams: [TICKETS] });
    const first = await runCli(["upstreams", "apply", f, "--as", "op-admin-0001", "--json"], ctl.env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, added: ["tickets"] });
    const audited = async () => (await inStore((db) => db.select().from(auditLog).where(like(auditLog.action, "upstream.%")))).length;
    const before = await audited();
    const second = await runCli(["upstreams", "apply", f, "--as", "op-admin-0001", "--json"], ctl.env);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, added: [], updated: [], removed: [], unchanged: ["tickets"] });
    expect(await audited()).toBe(before);
    const list = await runCli(["upstreams", "list", "--json"], ctl.env);
    expect(list.stdout).toContain("UPSTREAM_SECRET_TICKETS");
    expect(list.stdout).not.toContain("never-printed-secret-value");
  }, 120_000);

  it("a non-admin is refused and nothing changes", async () => {
    const r = await runCli(["upstreams", "remove", "tickets", "--as", "op-operator-0002"], ctl.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may not/);
    expect(await inStore((db) => db.select().from(upstreams))).toHaveLength(1);
  }, 120_000);

  it.each([
    ["an SSRF-ish URL", { upstreams: [{ ...TICKETS, url: "http://169.254.169.254/latest" }] }],
    ["a prototype key", '{"upstreams":[],"__proto__":{"polluted":true}}'],
    [
      "an app secret named as the credential",
      { upstreams: [{ ...TICKETS, auth: { kind: "header", header: "Authorization", secretEnv: "SESSION_SECRET" } }] },
    ],
    ["not JSON", "{upstreams: ["],
  ])(
    "%s is a usage error that changes nothing",
    async (_label, body) => {
      const r = await runCli(["upstreams", "apply", file("bad.json", body), "--as", "op-admin-0001"], ctl.env);
      expect(r.code).toBe(2);
      expect(await inStore((db) => db.select().from(upstreams))).toHaveLength(1);
    },
    120_000,
  );
});
