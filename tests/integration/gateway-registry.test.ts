// The upstream registry against real PostgreSQL: every change audited in its own transaction,
// the declarative file applied idempotently (the second apply changes and audits nothing), a
// tenant not listed never gets the upstream, and only admins hold the permission (a denial is
// audited and changes nothing). Nothing secret is stored: only the name of the variable.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, flows, operators, upstreams } from "@/db/schema";
import { startDemoUpstream } from "@/lib/demo/upstream";
import { AuthError, authorize } from "@/lib/auth/authorize";
import { addUpstreamAction } from "@/lib/gateway/upstream-actions";
import { addUpstream, applyUpstreams, removeUpstream, updateUpstream, upstreamsForTenant, UpstreamError } from "@/lib/gateway/registry";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const ADMIN = "op-admin-gw";
const base = { displayName: "Tickets", url: "https://tickets.example.com/mcp", tenants: ["acme"], exposedTools: ["*"] };

beforeAll(async () => {
  t = await createTestStore();
  await t.store.db.insert(operators).values([
    { subject: ADMIN, displayName: "admin", roles: ["admin"] },
    { subject: "op-operator-gw", displayName: "operator", roles: ["operator"] },
  ]);
});
afterAll(async () => {
  await t?.dispose();
});

const auditFor = (id: string) =>
  t.store.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "upstream"), eq(auditLog.targetId, id)));

describe("upstream registry", () => {
  it("add, update and remove are each audited; a duplicate or a missing id changes nothing", async () => {
    await addUpstream(t.store.db, ADMIN, {
      id: "tickets",
      ...base,
      auth: { kind: "header", header: "Authorization", secretEnv: "UPSTREAM_SECRET_TICKETS", prefix: "Bearer " },
    });
    await expect(addUpstream(t.store.db, ADMIN, { id: "tickets", ...base })).rejects.toThrow(UpstreamError);
    await updateUpstream(t.store.db, ADMIN, { id: "tickets", tenants: ["acme", "initech"] });
    await updateUpstream(t.store.db, ADMIN, { id: "tickets", tenants: ["initech", "acme"] }); // the same set: no change, no entry
    await expect(updateUpstream(t.store.db, ADMIN, { id: "nothere", tenants: ["acme"] })).rejects.toThrow(UpstreamError);
    const entries = await auditFor("tickets");
    expect(entries.map((e) => e.action)).toEqual(["upstream.added", "upstream.updated"]);
    expect(entries[1]!.detail).toMatchObject({ fields: ["tenants"] });
    const [row] = await t.store.db.select().from(upstreams).where(eq(upstreams.id, "tickets"));
    expect(row!.auth).toEqual({ header: "Authorization", secretEnv: "UPSTREAM_SECRET_TICKETS", prefix: "Bearer " });
    await removeUpstream(t.store.db, ADMIN, { id: "tickets" });
    expect((await auditFor("tickets")).map((e) => e.action)).toEqual(["upstream.added", "upstream.updated", "upstream.removed"]);
    await expect(removeUpstream(t.store.db, ADMIN, { id: "tickets" })).rejects.toThrow(UpstreamError);
  });

  it("apply makes the registry equal to the file, and applying it again changes and audits nothing", async () => {
    await addUpstream(t.store.db, ADMIN, { id: "stale", ...base });
    const file = {
      upstreams: [
        { id: "alpha", ...base },
        { id: "beta", ...base, tenants: ["globex"] },
      ],
    };
    expect(await applyUpstreams(t.store.db, ADMIN, file)).toEqual({
      added: ["alpha", "beta"],
      updated: [],
      removed: ["stale"],
      unchanged: [],
    });
    const before = (await t.store.db.select().from(auditLog).where(like(auditLog.action, "upstream.%"))).length;
    expect(await applyUpstreams(t.store.db, ADMIN, file)).toEqual({ added: [], updated: [], removed: [], unchanged: ["alpha", "beta"] });
    expect((await t.store.db.select().from(auditLog).where(like(auditLog.action, "upstream.%"))).length).toBe(before);
    expect((await upstreamsForTenant(t.store.db, "acme")).map((r) => r.id)).toEqual(["alpha"]);
    expect((await upstreamsForTenant(t.store.db, "globex")).map((r) => r.id)).toEqual(["beta"]);
    expect(await upstreamsForTenant(t.store.db, "initech")).toEqual([]);
  });

  it("a file naming one upstream twice, or with a bad entry, changes nothing", async () => {
    const before = await t.store.db.select().from(upstreams);
    await expect(
      applyUpstreams(t.store.db, ADMIN, {
        upstreams: [
          { id: "gamma", ...base },
          { id: "gamma", ...base },
        ],
      }),
    ).rejects.toThrow(/twice/);
    await expect(
      applyUpstreams(t.store.db, ADMIN, {
        upstreams: [
          { id: "gamma", ...base },
          { id: "delta", ...base, url: "http://169.254.169.254/" },
        ],
      }),
    ).rejects.toThrow();
    expect(await t.store.db.select().from(upstreams)).toEqual(before);
  });

  it("only admins may manage upstreams; a denial is audited", async () => {
    await expect(authorize(t.store.db, "op-operator-gw", addUpstreamAction.permission, { type: "upstream", id: "x" })).rejects.toThrow(
      AuthError,
    );
    const denied = await t.store.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "access.denied"), eq(auditLog.actorId, "op-operator-gw")));
    expect(denied.some((d) => (d.detail as { permission: string }).permission === "upstreams.manage")).toBe(true);
    await expect(authorize(t.store.db, ADMIN, addUpstreamAction.permission, { type: "upstream", id: "x" })).resolves.toMatchObject({
      subject: ADMIN,
      roles: expect.arrayContaining(["admin"]),
    });
  });

  it("the demo starts server-everything and registers it for acme with its flows open to the demo profiles", async () => {
    const demo = await startDemoUpstream(t.store.db, 20000 + Math.floor(Math.random() * 20000));
    try {
      expect((await upstreamsForTenant(t.store.db, "acme")).map((r) => r.id)).toContain("everything");
      const rows = await t.store.db.select().from(flows).where(eq(flows.id, "everything__echo:ctl"));
      expect(rows[0]).toMatchObject({ stage: "promoted", workflow: "everything__echo" });
    } finally {
      demo.stop();
    }
  }, 60_000);
});
