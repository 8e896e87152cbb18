import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { insertRecord, newRecordId, transition } from "@/lib/elicitation/records";
import { dailyVolume, healthByGroup } from "@/lib/metrics/overview";
import { prometheusText } from "@/lib/metrics/prometheus";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const base = {
  mode: "form" as const,
  needKind: "field" as const,
  tenantId: "acme",
  sessionId: null,
  clientVersion: "1",
  protocolVersion: "2025-11-25",
  requestMethod: "tools/call",
  requestId: "1",
  toolName: "generate_report",
  purpose: "p",
  routeDecision: "form" as const,
  routeReason: "r",
};

async function make(flow: string, client: string, final: "completed" | "declined" | "sent", answerAfterMs = 2000) {
  const id = newRecordId();
  await insertRecord(t.store.db, { ...base, id, subject: `s-${id}`, clientName: client, flowId: null }, "sent");
  const set = { respondedAt: new Date(Date.now() + answerAfterMs) };
  // A completed form answer passes through accepted (the engine's settleForm move); a decline does not.
  if (final === "completed") await transition(t.store.db, id, { move: "settleForm", to: final, set });
  if (final === "declined") await transition(t.store.db, id, { move: "answer", to: final, set });
  // flowId has a foreign key to flows; group by client/mode here, flow is covered by "setup".
  void flow;
  return id;
}

beforeAll(async () => {
  t = await createTestStore();
  for (let i = 0; i < 8; i++) await make("f", "Big Client", i < 6 ? "completed" : "declined", 2000 + i * 1000);
  for (let i = 0; i < 3; i++) await make("f", "Tiny Client", "completed");
});
afterAll(async () => {
  await t.dispose();
});

describe("overview aggregates", () => {
  it("computes rates and time-to-resume in SQL, and folds small groups", async () => {
    const rows = await healthByGroup(t.store.db, { period: "7d", by: "client" });
    expect(rows).toEqual([
      {
        group: "Big Client 1",
        total: 8,
        completed: 6,
        declined: 2,
        cancelled: 0,
        clientDisconnected: 0,
        validationFailed: 0,
        timedOut: 0,
        preventedRepeats: 0,
        resumeP50s: expect.any(Number),
        resumeP95s: expect.any(Number),
      },
      expect.objectContaining({ group: "other (small groups)", total: 3, completed: 3, resumeP50s: null }),
    ]);
    expect(rows[0]!.resumeP50s).toBeGreaterThanOrEqual(4);
    expect(rows[0]!.resumeP95s).toBeGreaterThan(rows[0]!.resumeP50s!);
    const volume = await dailyVolume(t.store.db, { period: "7d", by: "flow" });
    expect(volume.reduce((s, v) => s + v.completed + v.refused, 0)).toBe(11);
  });

  it("exports the same aggregates for Prometheus, without small groups broken out", async () => {
    const text = await prometheusText(t.store.db);
    expect(text).toMatch(/^elicitation_records\{state="completed",mode="form",flow="none"\} 9$/m);
    // Two declines are too few to break out: folded into flow="other".
    expect(text).toMatch(/^elicitation_records\{state="declined",mode="form",flow="other"\} 2$/m);
    expect(text).not.toMatch(/Tiny/);
    const [n] = await t.store.db.select().from(elicitationRecords).limit(1);
    expect(text).not.toContain(n!.subject);
  });
});
