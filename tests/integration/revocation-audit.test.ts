// Bulk revocation names every revoked record in the audit chain: one entry per record up to
// PER_RECORD_AUDIT_MAX, above that one entry per batch of up to AUDIT_BATCH_IDS ids (issue 15).
// Checked on the store: each revoked id named exactly once, no record that was not revoked named,
// records of another flow untouched and unnamed, the chain intact.
import { and, desc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { seedDemo } from "@/lib/demo/seed";
import { insertRecord, getRecord } from "@/lib/elicitation/records";
import { AUDIT_BATCH_IDS, PER_RECORD_AUDIT_MAX, revocationAudit, revokeRecords } from "@/lib/elicitation/revoke";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 0 });
});
afterAll(() => t.dispose());

async function pending(n: number, flowId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const draft = recordDraft({
      mode: "url",
      needKind: "grant",
      subject: `rev-${i}`,
      protocolVersion: "2025-11-25",
      requestId: String(i),
      toolName: "list_repositories",
      flowId,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const id = draft.id;
    await insertRecord(t.store.db, draft, "sent");
    ids.push(id);
  }
  return ids;
}

async function lastSeq(): Promise<number> {
  const [row] = await t.store.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  return row?.seq ?? 0;
}

/** Every record id the revocation entries written after `after` name, with repeats. */
async function namedSince(after: number): Promise<{ named: string[]; entries: Array<typeof auditLog.$inferSelect> }> {
  const entries = await t.store.db
    .select()
    .from(auditLog)
    .where(and(gt(auditLog.seq, after), eq(auditLog.action, "record.revoked")))
    .orderBy(auditLog.seq);
  const named = entries.flatMap((e) => (e.targetType === "elicitation_batch" ? ((e.detail as { ids: string[] }).ids ?? []) : [e.targetId]));
  return { named, entries };
}

describe("revocation audit", () => {
  it("a bulk revocation names each revoked record exactly once, in batch entries", async () => {
    const n = PER_RECORD_AUDIT_MAX + AUDIT_BATCH_IDS * 2 + 7;
    const ids = await pending(n, "list_repositories:claude-code");
    const other = await pending(3, "list_repositories:ctl");
    const before = await lastSeq();
    const revoked = await revokeRecords(
      t.store.db,
      { type: "operator", id: "op-1" },
      { pending: { flowId: "list_repositories:claude-code" } },
      "phishing",
    );
    expect(new Set(revoked)).toEqual(new Set(ids));
    const { named, entries } = await namedSince(before);
    expect(named.length).toBe(ids.length);
    expect(new Set(named)).toEqual(new Set(ids));
    for (const id of other) expect(named).not.toContain(id);
    expect(entries.length).toBe(Math.ceil(n / AUDIT_BATCH_IDS));
    for (const e of entries) {
      expect(e).toMatchObject({ targetType: "elicitation_batch", actorType: "operator", actorId: "op-1" });
      const d = e.detail as { ids: string[]; count: number; reason: string };
      expect(d.count).toBe(d.ids.length);
      expect(d.reason).toBe("phishing");
      expect(e.targetId).toBe(`${d.ids[0]}..${d.ids[d.ids.length - 1]}`);
    }
    for (const id of ids.slice(0, 3)) expect(await getRecord(t.store.db, id)).toMatchObject({ state: "revoked" });
    for (const id of other) expect(await getRecord(t.store.db, id)).toMatchObject({ state: "sent" });
    expect((await verifyStoredChain(t.store.db)).ok).toBe(true);
  });

  it("a small revocation writes one entry per record, found by its target", async () => {
    const ids = await pending(3, "list_repositories:ctl");
    const before = await lastSeq();
    await revokeRecords(t.store.db, { type: "operator", id: "op-2" }, { ids }, "mistake");
    const { entries } = await namedSince(before);
    expect(entries.map((e) => e.targetId).sort()).toEqual([...ids].sort());
    for (const e of entries) expect(e).toMatchObject({ targetType: "elicitation", detail: { reason: "mistake" } });
  });

  it("batches stay within what a value-free audit detail may list", () => {
    const ids = Array.from({ length: PER_RECORD_AUDIT_MAX + 1 }, (_, i) => i.toString(16).padStart(32, "0"));
    const inputs = revocationAudit({ type: "system", id: "s" }, ids, "r");
    expect(inputs.every((i) => Array.isArray(i.detail?.ids) && (i.detail!.ids as string[]).length <= AUDIT_BATCH_IDS)).toBe(true);
    expect(inputs.flatMap((i) => i.detail!.ids as string[])).toEqual(ids);
  });
});
