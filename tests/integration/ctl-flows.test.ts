// `ctl client-profiles` and `ctl flows` in a child process, the way an operator runs them: only
// admins map client ids, only releasers change stages, bad input is a usage error that changes
// nothing, and every change has its audit entry.
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { auditLog, clientProfiles, flows } from "@/db/schema";
import { runCli as runCliRaw } from "../helpers/cli";
import { useCtlStore } from "../helpers/ctl-store";

const ctl = useCtlStore({ tmpPrefix: "eg-ctl-flows-" });
const { tmp, runCli, inStore } = ctl;
const snapshot = () =>
  inStore(async (db) => ({
    profiles: await db.select().from(clientProfiles).orderBy(clientProfiles.clientId),
    flows: await db.select().from(flows).orderBy(flows.id),
    audit: (await db.select().from(auditLog)).length,
  }));
const audits = (action: string, targetId: string) =>
  inStore(async (db) =>
    (
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)))
    ).map((a) => ({ actor: a.actorId, ...(a.detail as object) })),
  );

describe("ctl client-profiles", () => {
  it("lists the seeded mappings, and an admin maps and unmaps a client id, each audited", async () => {
    const list = await runCli(["client-profiles", "list", "--json"], ctl.env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).profiles.map((p: { clientId: string }) => p.clientId)).toContain("claude-code");
    const set = await runCli(
      [
        "client-profiles",
        "set",
        "0f3c-dcr-client",
        "--profile",
        "mcp-inspector",
        "--name",
        "Inspector (team laptop)",
        "--as",
        "op-admin-0001",
        "--json",
      ],
      ctl.env,
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ ok: true, clientId: "0f3c-dcr-client", profile: "mcp-inspector" });
    const removed = await runCli(["client-profiles", "remove", "0f3c-dcr-client", "--as", "op-admin-0001"], ctl.env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/now "unregistered"/);
    expect(await audits("client_profile.set", "0f3c-dcr-client")).toEqual([
      { actor: "op-admin-0001", profile: "mcp-inspector", previous_profile: null },
    ]);
    expect(await audits("client_profile.removed", "0f3c-dcr-client")).toEqual([{ actor: "op-admin-0001", profile: "mcp-inspector" }]);
    expect(
      (await inStore((db) => db.select().from(clientProfiles).where(eq(clientProfiles.clientId, "0f3c-dcr-client"))))[0]!.disabledAt,
    ).toBeInstanceOf(Date);
  });

  it("refuses --as without a login: typing an admin's subject proves nothing, and nothing changes", async () => {
    const before = await snapshot();
    const r = await runCliRaw(
      ["client-profiles", "set", "evil-client", "--profile", "claude-code", "--name", "x", "--as", "op-admin-0001"],
      { ...ctl.env, CTL_SESSION_FILE: path.join(tmp, "nobody-signed-in.json") },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ctl login/);
    const f = await runCliRaw(
      ["flows", "rollback", "--workflow", "generate_report", "--reason", "impersonation", "--as", "op-releaser-0003"],
      { ...ctl.env, CTL_SESSION_FILE: path.join(tmp, "nobody-signed-in.json") },
    );
    expect(f.code).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a non-admin (audited) and bad input (usage error), changing nothing", async () => {
    const before = await snapshot();
    const releaser = await runCli(
      ["client-profiles", "set", "evil-client", "--profile", "claude-code", "--name", "x", "--as", "op-releaser-0003"],
      ctl.env,
    );
    expect(releaser.code).toBe(1);
    expect(releaser.stderr).toMatch(/may not do this \(forbidden: client_profiles\.manage/);
    const denied = await audits("access.denied", "evil-client");
    expect(denied).toEqual([{ actor: "op-releaser-0003", permission: "client_profiles.manage", reason: "role lacks permission" }]);
    // The whole class is in tests/unit/flow-identifiers.test.ts; here, that the CLI refuses it.
    for (const [clientId, profile] of [
      ["c1", "Claude-Code"],
      ["c1", "unregistered"],
      ["c1", "__proto__"],
      ["bad id", "p"],
    ] as const) {
      const r = await runCli(["client-profiles", "set", clientId, "--profile", profile, "--name", "n", "--as", "op-admin-0001"], ctl.env);
      expect(r.code, `${clientId} ${profile}`).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect((await runCli(["client-profiles", "set", "c1", "--as", "op-admin-0001"], ctl.env)).code).toBe(2);
    expect((await runCli(["client-profiles", "remove", "never-mapped", "--as", "op-admin-0001"], ctl.env)).code).toBe(1);
    const after = await snapshot();
    expect(after.profiles).toEqual(before.profiles);
    expect(after.audit).toBe(before.audit + 1); // only the denied attempt
  });
});

describe("ctl flows", () => {
  it("sets a canary share (releaser, audited) and refuses odd shares and flow ids, changing nothing", async () => {
    const before = await snapshot();
    for (const pct of ["100%", "abc", "101"]) {
      const r = await runCli(
        ["flows", "canary", "generate_report:codex", "--percent", pct, "--reason", "try it", "--as", "op-releaser-0003"],
        ctl.env,
      );
      expect(r.code, pct).toBe(2);
    }
    for (const id of ["x".repeat(300), "__proto__"]) {
      expect(
        (await runCli(["flows", "canary", id, "--percent", "5", "--reason", "try it", "--as", "op-releaser-0003"], ctl.env)).code,
      ).toBe(2);
    }
    expect(
      (
        await runCli(
          ["flows", "canary", "generate_report:codex", "--percent", "5", "--reason", "try it", "--as", "op-viewer-0006"],
          ctl.env,
        )
      ).code,
    ).toBe(1);
    const mid = await snapshot();
    expect(mid.flows).toEqual(before.flows);
    const ok = await runCli(
      ["flows", "canary", "generate_report:codex", "--percent", "5", "--reason", "small canary", "--as", "op-releaser-0003", "--json"],
      ctl.env,
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, flowId: "generate_report:codex", stage: "canary", canaryPercent: 5 });
    expect(await audits("flow.canary_set", "generate_report:codex")).toEqual([
      { actor: "op-releaser-0003", reason: "small canary", percent: 5, from_stage: "promoted", from_percent: 0 },
    ]);
  });

  it("rolls back a workflow for every client profile at once, each flow audited", async () => {
    const r = await runCli(
      ["flows", "rollback", "--workflow", "purge_report_cache", "--reason", "bad release", "--as", "op-releaser-0003", "--json"],
      ctl.env,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const rows = await inStore((db) => db.select().from(flows).where(eq(flows.workflow, "purge_report_cache")));
    expect(rows.length).toBeGreaterThanOrEqual(9);
    expect(rows.every((f) => f.stage === "rolled_back")).toBe(true);
    expect(out.flows).toEqual(rows.map((f) => f.id).sort());
    expect(out.flows).toContain("purge_report_cache:unregistered");
    for (const id of out.flows)
      expect(await audits("flow.rolled_back", id)).toEqual([
        expect.objectContaining({ actor: "op-releaser-0003", workflow: "purge_report_cache", workflow_rollback: true }),
      ]);
    // A workflow that never ran is a typo, not a reason to create flows.
    const before = await snapshot();
    const typo = await runCli(
      ["flows", "rollback", "--workflow", "purge_reports", "--reason", "bad release", "--as", "op-releaser-0003"],
      ctl.env,
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/has no flows/);
    expect(
      (await runCli(["flows", "rollback", "--workflow", "__proto__", "--reason", "bad release", "--as", "op-releaser-0003"], ctl.env)).code,
    ).toBe(1);
    expect((await snapshot()).flows).toEqual(before.flows);
  });
});

describe("ctl token --client", () => {
  it("mints a token whose client_id is one of the provider's static clients, and refuses any other", async () => {
    const tokenEnv = { ...ctl.env, APP_URL: "http://localhost:4556", OIDC_ISSUER: "" };
    const r = await runCli(["token", "--subject", "user-alice-1001", "--client", "claude-code", "--json"], tokenEnv);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.client_id).toBe("claude-code");
    expect(decodeJwt(out.access_token)).toMatchObject({ client_id: "claude-code", sub: "user-alice-1001" });
    const refused = await runCli(["token", "--subject", "user-alice-1001", "--client", "made-up-client"], tokenEnv);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--client must be one of ctl, claude-code/);
    expect(refused.stdout).toBe("");
  });
});
