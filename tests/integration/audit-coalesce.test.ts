// Issue 11 item 6, coalesced denial audit: a flood of denied page views (or refused connect views)
// leaves the first denial and ONE entry with the count of the rest, whichever instance served
// them; random target ids do not mint new windows; state-changing actions keep one entry each;
// the count is written when the key's next window opens or when the reconciler flushes ended
// windows. Real PostgreSQL (or PGlite), the real audit writer and chain.
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { auditCoalesce, auditLog } from "@/db/schema";
import { auditCoalesced, flushCoalescedAudit } from "@/lib/abuse/audit-coalesce";
import { abuseConfig } from "@/lib/abuse/config";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { AuthError, authorize } from "@/lib/auth/authorize";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { connectView } from "@/lib/connect/flow";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let other: Store | undefined;
const WINDOW = abuseConfig().auditCoalesceWindowMs;

beforeAll(async () => {
  t = await createTestStore();
  // A second connection pool on the same database stands for a second instance.
  if (t.config.kind === "postgres") other = await openStore(t.config);
});
afterAll(async () => {
  await other?.close();
  await t?.dispose();
});

const entriesOf = (actor: string) => t.store.db.select().from(auditLog).where(eq(auditLog.actorId, actor)).orderBy(auditLog.seq);
const countOf = (rows: Array<{ action: string; detail: unknown }>) =>
  rows.reduce((sum, r) => sum + (r.action.endsWith("_repeated") ? Number((r.detail as { repeats: number }).repeats) : 1), 0);
const flushAll = (db = t.store.db) => flushCoalescedAudit(db, WINDOW, new Date(Date.now() + WINDOW + 1000));

async function deniedView(db: typeof t.store.db, subject: string, target = { type: "console", id: "audit" }) {
  await expect(authorize(db, subject, PERMISSIONS.auditRead, target, { view: true })).rejects.toBeInstanceOf(AuthError);
}

describe("coalesced denied views", () => {
  it("100 denied views of one page write at most 2 audit rows whose counts add up to 100", async () => {
    const subject = `user-snoop-${randomUUID()}`;
    for (let i = 0; i < 40; i++) await deniedView(t.store.db, subject);
    await Promise.all(Array.from({ length: 60 }, () => deniedView(t.store.db, subject)));
    const before = await entriesOf(subject);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      action: "access.denied",
      targetType: "console",
      targetId: "audit",
      detail: { permission: "audit.read", reason: "not an active operator" },
    });
    expect(await flushAll()).toBeGreaterThanOrEqual(1);
    const after = await entriesOf(subject);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(after[1]).toMatchObject({
      action: "access.denied_repeated",
      targetId: "audit",
      detail: { permission: "audit.read", repeats: 99 },
    });
    expect(countOf(after)).toBe(100);
    expect(await verifyStoredChain(t.store.db)).toMatchObject({ ok: true });
  });

  it("counts across instances sharing the store", async () => {
    const second = other?.db ?? t.store.db;
    const subject = `user-two-instances-${randomUUID()}`;
    await Promise.all(Array.from({ length: 100 }, (_, i) => deniedView(i % 2 ? second : t.store.db, subject)));
    await flushAll();
    const rows = await entriesOf(subject);
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(countOf(rows)).toBe(100);
  });

  it("random target ids coalesce into one window (they are not part of the key); distinct console pages do not", async () => {
    const subject = `user-random-${randomUUID()}`;
    for (let i = 0; i < 30; i++) await deniedView(t.store.db, subject, { type: "elicitation", id: randomUUID() });
    await deniedView(t.store.db, subject, { type: "console", id: "audit" });
    await deniedView(t.store.db, subject, { type: "console", id: "records" });
    await flushAll();
    const rows = await entriesOf(subject);
    expect(rows.map((r) => `${r.action}:${r.targetType}`).sort()).toEqual([
      "access.denied:console",
      "access.denied:console",
      "access.denied:elicitation",
      "access.denied_repeated:elicitation",
    ]);
    expect(countOf(rows)).toBe(32);
  });

  it("server actions keep one audit entry per attempt", async () => {
    const subject = `user-actor-${randomUUID()}`;
    for (let i = 0; i < 5; i++)
      await expect(
        authorize(t.store.db, subject, PERMISSIONS.killSwitchChange, { type: "kill_switch", id: "global" }),
      ).rejects.toBeInstanceOf(AuthError);
    await flushAll();
    const rows = await entriesOf(subject);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.action === "access.denied")).toBe(true);
  });

  it("writes the count when the key's next window opens, then starts a new window with that denial", async () => {
    const actor = `user-windows-${randomUUID()}`;
    const entry = {
      actorType: "subject" as const,
      actorId: actor,
      action: AUDIT_ACTIONS.connectRefused,
      targetType: "elicitation",
      targetId: "x",
      detail: { problem: "not_found" },
    };
    const key = { actor, action: entry.action, reason: "not_found", target: "elicitation:*" };
    const t0 = new Date();
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await auditCoalesced(t.store.db, entry, key, 60_000, at(0))).toBe("written");
    expect(await auditCoalesced(t.store.db, entry, key, 60_000, at(1_000))).toBe("counted");
    expect(await auditCoalesced(t.store.db, entry, key, 60_000, at(59_000))).toBe("counted");
    expect(await auditCoalesced(t.store.db, entry, key, 60_000, at(61_000))).toBe("written");
    const rows = await entriesOf(actor);
    expect(rows.map((r) => r.action)).toEqual(["connect.refused", "connect.refused_repeated", "connect.refused"]);
    expect(rows[1]!.detail).toMatchObject({
      problem: "not_found",
      repeats: 2,
      window_start: t0.toISOString(),
      last_at: at(59_000).toISOString(),
    });
    // Nothing pending in the new window: a flush writes nothing more and forgets the window.
    await flushCoalescedAudit(t.store.db, 60_000, at(200_000));
    expect(await entriesOf(actor)).toHaveLength(3);
    expect(await t.store.db.select().from(auditCoalesce).where(eq(auditCoalesce.actorId, actor))).toHaveLength(0);
  });

  it("does not flush a window that is still open", async () => {
    const subject = `user-open-${randomUUID()}`;
    for (let i = 0; i < 3; i++) await deniedView(t.store.db, subject);
    await flushCoalescedAudit(t.store.db, WINDOW);
    expect(await entriesOf(subject)).toHaveLength(1);
    const [pending] = await t.store.db.select().from(auditCoalesce).where(eq(auditCoalesce.actorId, subject));
    expect(pending?.repeats).toBe(2);
  });
});

describe("coalesced connect refusals", () => {
  it("100 views of random /connect ids write at most 2 rows adding up to 100, naming no raw input beyond a bounded id", async () => {
    const sub = `user-connect-flood-${randomUUID()}`;
    for (let i = 0; i < 100; i++) {
      const id = i % 3 === 0 ? "__proto__" : i % 3 === 1 ? randomUUID() : `${"z".repeat(300)}${i}`;
      expect(await connectView(t.store.db, id, { sub, tenant: "acme" })).toEqual({ ok: false, problem: "not_found" });
    }
    await flushAll();
    const rows = await t.store.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, sub), inArray(auditLog.action, ["connect.refused", "connect.refused_repeated"])));
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(countOf(rows)).toBe(100);
    expect(rows.every((r) => r.targetId.length <= 64)).toBe(true);
  });
});
