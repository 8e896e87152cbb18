// A gate passes only on evidence the gates signed: a gate record that claims a pass is checked
// against its evidence document (present, hashing to the record, about this flow and version,
// saying that gate passed, signed by this deployment's key), and promotion is refused otherwise.
// This is the red team's F1: `ctl gates record --passed --result ANY_FILE` made five "passes" out
// of one file that said the gate failed, and the flow was promoted on them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gateEvidence, gateRuns, flows } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide";
import { loadSigner } from "@/lib/audit/signing";
import { seedDemo } from "@/lib/demo/seed";
import { GATES, gateStatus, type Gate } from "@/lib/policy/gates";
import { applyPromotion, requestPromotion } from "@/lib/policy/promotion";
import { runCli } from "../helpers/cli";
import { recordGateEvidence } from "../helpers/gate-evidence";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const FLOW = "list_repositories:visual-studio-code";
const OTHER_FLOW = "generate_report:claude-code";
const RELEASER = "op-releaser-0003";
const APPROVER = "op-approver-0004";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gate-proof-"));

beforeAll(async () => {
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 10 });
});
afterAll(async () => {
  await t.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const flow = async (id = FLOW) => (await t.store.db.select().from(flows).where(eq(flows.id, id)))[0]!;
const statuses = async () => Object.fromEntries((await gateStatus(t.store.db, await flow())).map((s) => [s.gate, s]));
/** A gate record pointing at `hash`, as the removed `ctl gates record` wrote them. */
const claimPass = async (gate: Gate, hash: string) => {
  const f = await flow();
  await t.store.db
    .insert(gateRuns)
    .values({ flowId: f.id, gate, passed: true, fingerprint: f.fingerprint, resultHash: hash, ranBy: RELEASER });
};
const approvedPromotion = async () => {
  const a = await requestPromotion(t.store.db, RELEASER, FLOW, "gates say so");
  await decideApproval(t.store.db, APPROVER, { id: a.id, decision: "approve", reason: "if the gates agree" });
};

describe("gate evidence is proof, not a claim", () => {
  it("a claimed pass with no signed document behind it is unverified, and promotion is refused", async () => {
    for (const gate of GATES) await claimPass(gate, "a".repeat(64));
    const s = await statuses();
    for (const gate of GATES) expect(s[gate]).toMatchObject({ status: "unverified", reason: "no signed evidence document has this hash" });
    await approvedPromotion();
    await expect(applyPromotion(t.store.db, RELEASER, FLOW)).rejects.toThrow(
      /contract unverified \(no signed evidence document has this hash\)/,
    );
    expect((await flow()).stage).not.toBe("promoted");
  });

  it("a claimed pass pointing at another flow's passing evidence is unverified", async () => {
    const foreign = await recordGateEvidence(t.store.db, OTHER_FLOW, RELEASER);
    await claimPass("privacy", foreign);
    expect((await statuses()).privacy).toMatchObject({ status: "unverified", reason: "the evidence is about another flow or version" });
  });

  it("a claimed pass pointing at this flow's evidence that says the gate failed is unverified", async () => {
    const failing = await recordGateEvidence(t.store.db, FLOW, RELEASER, { failing: "recovery" });
    const before = await statuses();
    expect(before.recovery!.status).toBe("failed");
    expect(before.contract!.status).toBe("passed");
    await claimPass("recovery", failing);
    expect((await statuses()).recovery).toMatchObject({ status: "unverified", reason: "the evidence says recovery failed" });
  });

  it("a stored document changed after signing is unverified", async () => {
    const hash = await recordGateEvidence(t.store.db, FLOW, RELEASER);
    expect(Object.values(await statuses()).every((s) => s.status === "passed")).toBe(true);
    const [row] = await t.store.db.select().from(gateEvidence).where(eq(gateEvidence.hash, hash));
    await t.store.db
      .update(gateEvidence)
      .set({ document: row!.document.replace('"passed":true', '"passed":false') })
      .where(eq(gateEvidence.hash, hash));
    expect((await statuses()).phishing).toMatchObject({
      status: "unverified",
      reason: "the evidence document does not hash to the recorded value",
    });
  });

  it("evidence signed by another key is unverified; the same evidence signed by this deployment's key passes and promotes", async () => {
    const stranger = loadSigner({ DATA_DIR: tmp });
    await recordGateEvidence(t.store.db, FLOW, RELEASER, { signer: stranger });
    expect((await statuses()).accessibility).toMatchObject({
      status: "unverified",
      reason: "the evidence's signature does not verify with this deployment's audit key",
    });
    await recordGateEvidence(t.store.db, FLOW, RELEASER);
    expect(Object.values(await statuses()).map((s) => s.status)).toEqual(GATES.map(() => "passed"));
    expect(await applyPromotion(t.store.db, RELEASER, FLOW)).toEqual({ flowId: FLOW, stage: "promoted" });
  });

  it("evidence from a run against another deployment counts only when that target is accepted (GATES_ACCEPTED_TARGETS)", async () => {
    await recordGateEvidence(t.store.db, FLOW, RELEASER, { target: "https://friendly-build.example" });
    expect((await statuses()).contract).toMatchObject({
      status: "unverified",
      reason: "the gates ran against https://friendly-build.example, not this deployment or an accepted target (GATES_ACCEPTED_TARGETS)",
    });
    process.env.GATES_ACCEPTED_TARGETS = "https://friendly-build.example";
    try {
      expect(Object.values(await statuses()).map((s) => s.status)).toEqual(GATES.map(() => "passed"));
    } finally {
      delete process.env.GATES_ACCEPTED_TARGETS;
    }
    expect((await statuses()).contract!.status).toBe("unverified");
  });

  it("ctl has no way to record a gate result by hand", async () => {
    const runsBefore = (await t.store.db.select().from(gateRuns)).length;
    for (const args of [
      ["gates", "record", "--flow", FLOW],
      ["gates", "record", "--flow", FLOW, "--gate", "privacy", "--passed", "--result", "/dev/null"],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(/usage: ctl gates|unknown option/i);
    }
    expect((await t.store.db.select().from(gateRuns)).length).toBe(runsBefore);
  });
});
