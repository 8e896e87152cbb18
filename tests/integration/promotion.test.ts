// A releaser's promotion waits for a different approver and is refused while a gate is missing or
// stale; approvals reset when the fingerprint changes; rollback revokes unfinished handles.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flows } from "@/db/schema";
import { ApprovalError, decideApproval } from "@/lib/approvals/decide";
import { seedDemo } from "@/lib/demo/seed";
import { getRecord, insertRecord } from "@/lib/elicitation/records";
import { GATES, gateStatus, type Gate } from "@/lib/policy/gates";
import { applyPromotion, PromotionError, requestPromotion, rollbackFlow, updateFingerprint } from "@/lib/policy/promotion";
import { recordGateEvidence } from "../helpers/gate-evidence";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const FLOW = "list_repositories:visual-studio-code";
const RELEASER = "op-releaser-0003";
const APPROVER = "op-approver-0004";

beforeAll(async () => {
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 20 });
});
afterAll(async () => {
  await t.dispose();
});

const flow = async () => (await t.store.db.select().from(flows).where(eq(flows.id, FLOW)))[0]!;
const passAll = (except?: Gate) => recordGateEvidence(t.store.db, FLOW, RELEASER, { failing: except });

describe("canary promotion", () => {
  it("waits for an approver, who is never the requester", async () => {
    const a = await requestPromotion(t.store.db, RELEASER, FLOW, "ready for everyone");
    await expect(applyPromotion(t.store.db, RELEASER, FLOW)).rejects.toThrow(/no approved promotion/);
    await expect(decideApproval(t.store.db, RELEASER, { id: a.id, decision: "approve", reason: "mine" })).rejects.toMatchObject({
      status: 403,
    });
    await decideApproval(t.store.db, APPROVER, { id: a.id, decision: "approve", reason: "looks good" });
  });

  it("is refused while a gate is missing, failing or stale, and applied once all pass for the current version", async () => {
    await expect(applyPromotion(t.store.db, RELEASER, FLOW)).rejects.toThrow(/contract missing.*accessibility missing/);
    await passAll("privacy");
    await expect(applyPromotion(t.store.db, RELEASER, FLOW)).rejects.toThrow(/privacy failed/);
    await passAll();
    expect((await gateStatus(t.store.db, await flow())).every((g) => g.status === "passed")).toBe(true);
    expect(await applyPromotion(t.store.db, RELEASER, FLOW)).toEqual({ flowId: FLOW, stage: "promoted" });
    expect(await flow()).toMatchObject({ stage: "promoted", retestRequired: false });
  });

  it("marks the flow for retest and resets approvals when the fingerprint changes", async () => {
    await rollbackFlow(t.store.db, RELEASER, FLOW, "new client version");
    const a = await requestPromotion(t.store.db, RELEASER, FLOW, "again");
    await decideApproval(t.store.db, APPROVER, { id: a.id, decision: "approve", reason: "ok again" });
    expect(await updateFingerprint(t.store.db, FLOW, "f".repeat(64), { clientVersions: ["2"] })).toBe(true);
    expect(await flow()).toMatchObject({ retestRequired: true, fingerprint: "f".repeat(64) });
    expect((await gateStatus(t.store.db, await flow())).map((g) => g.status)).toEqual(GATES.map(() => "stale"));
    await expect(applyPromotion(t.store.db, RELEASER, FLOW)).rejects.toThrow(PromotionError);
    await expect(decideApproval(t.store.db, APPROVER, { id: a.id, decision: "approve", reason: "late" })).rejects.toThrow(ApprovalError);
  });

  it("rollback blocks the flow and revokes its unfinished handles", async () => {
    const draft = recordDraft({
      mode: "url",
      needKind: "grant",
      subject: "user-alice-1001",
      clientName: "Visual Studio Code",
      protocolVersion: "2025-11-25",
      requestId: "1",
      toolName: "list_repositories",
      flowId: FLOW,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const id = draft.id;
    await insertRecord(t.store.db, draft, "sent");
    const r = await rollbackFlow(t.store.db, RELEASER, FLOW, "incident");
    expect(r.revoked).toBe(1);
    expect(await getRecord(t.store.db, id)).toMatchObject({ state: "revoked" });
    expect(await flow()).toMatchObject({ stage: "rolled_back" });
  });
});
