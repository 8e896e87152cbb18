import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRecord } from "@/lib/elicitation/records";
import { filterChoices, listRecords } from "@/lib/elicitation/record-queries";
import { recordDraft } from "../helpers/record-draft";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const ids: string[] = [];

beforeAll(async () => {
  t = await createTestStore();
  for (let i = 0; i < 23; i++) {
    const draft = recordDraft({ mode: i % 2 ? "url" : "form", needKind: "field", requestId: String(i), routeDecision: "form" });
    ids.push(draft.id);
    await insertRecord(t.store.db, draft, "sent");
  }
});
afterAll(async () => {
  await t.dispose();
});

describe("records keyset pagination", () => {
  it.each(["newest", "oldest"] as const)("walks every record exactly once, %s first", async (sort) => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { rows, next } = await listRecords(t.store.db, { sort, after }, 5);
      seen.push(...rows.map((r) => r.id));
      if (!next) break;
      after = next;
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    const times = (await listRecords(t.store.db, { sort }, 50)).rows.map((r) => r.id);
    expect(seen).toEqual(times);
  });

  it("filters on the server", async () => {
    const { rows } = await listRecords(t.store.db, { sort: "newest", mode: "url" }, 50);
    expect(rows).toHaveLength(11);
    expect(rows.every((r) => r.mode === "url")).toBe(true);
  });

  it("offers the flows and clients that occur, from the rollup", async () => {
    expect(await filterChoices(t.store.db)).toEqual({ flows: [], clients: ["c"] });
  });
});
