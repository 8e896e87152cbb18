// Records abandoned by a stopped instance are closed by any instance once their outcome can no
// longer arrive; records still within their time are left alone, and the move is guarded and evented.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { reconcileStaleRecords, RECONCILE_GRACE_MS } from "@/lib/elicitation/reconcile";
import { getRecord, insertRecord, recordEvents } from "@/lib/elicitation/records";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const TIMEOUT = 600_000;

async function record(mode: "form" | "url", state: "sent" | "not_sent", sentMsAgo: number, expiresInMs?: number): Promise<string> {
  const draft = recordDraft({ mode });
  const id = draft.id;
  await insertRecord(t.store.db, draft, state);
  const sentAt = new Date(Date.now() - sentMsAgo).toISOString();
  const expiresAt = expiresInMs === undefined ? null : new Date(Date.now() + expiresInMs).toISOString();
  await t.store.db
    .update(elicitationRecords)
    .set({ sentAt: sql`${sentAt}::timestamptz`, expiresAt: expiresAt ? sql`${expiresAt}::timestamptz` : null })
    .where(eq(elicitationRecords.id, id));
  return id;
}

beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t.dispose();
});

describe("reconciliation of abandoned records", () => {
  it("times out form records past timeout plus grace, expires URL handles past expiry, and touches nothing else", async () => {
    const abandoned = await record("form", "sent", TIMEOUT + RECONCILE_GRACE_MS + 5_000);
    const inFlight = await record("form", "sent", TIMEOUT); // still inside the grace period
    const finished = await record("form", "not_sent", TIMEOUT * 3);
    const lapsed = await record("url", "sent", 60_000, -1_000);
    const open = await record("url", "sent", 60_000, 60_000);

    expect(await reconcileStaleRecords(t.store.db, { formTimeoutMs: TIMEOUT })).toEqual({ timedOut: 1, expired: 1 });
    expect((await getRecord(t.store.db, abandoned))?.state).toBe("timed_out");
    expect((await getRecord(t.store.db, lapsed))?.state).toBe("expired");
    for (const id of [inFlight, open]) expect((await getRecord(t.store.db, id))?.state).toBe("sent");
    expect((await getRecord(t.store.db, finished))?.state).toBe("not_sent");

    const events = await recordEvents(t.store.db, abandoned);
    expect(events.at(-1)).toMatchObject({ fromState: "sent", toState: "timed_out", actorType: "system", actorId: "reconciler" });
    expect((await getRecord(t.store.db, abandoned))?.finishedAt).toBeInstanceOf(Date);

    // A second pass (another instance) finds nothing more to do and writes no second event.
    expect(await reconcileStaleRecords(t.store.db, { formTimeoutMs: TIMEOUT })).toEqual({ timedOut: 0, expired: 0 });
    expect(await recordEvents(t.store.db, abandoned)).toHaveLength(events.length);
  });
});
