// The limiter's leases: with a large limit an instance takes points from the store in batches, so
// the limit holds across instances within (batch - 1) per instance, with far fewer store writes;
// with a small limit the batch is 1 and the limit is exact.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { leaseSize, requestLimiter } from "@/lib/abuse/rate-limiter";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let other: Store | undefined;

beforeAll(async () => {
  t = await createTestStore();
  if (t.config.kind === "postgres") other = await openStore(t.config);
});
afterAll(async () => {
  await other?.close();
  await t?.dispose();
});

const options = (points: number) => ({
  name: `lease-${randomUUID()}`,
  label: "test requests",
  perSubject: points,
  perAddress: points,
  windowMs: 60_000,
});

describe("rate limiter leases", () => {
  it("sizes the batch at 1/50 of the limit, between 1 and 20", () => {
    expect([1, 5, 99, 100, 600, 1000, 6000].map(leaseSize)).toEqual([1, 1, 1, 2, 12, 20, 20]);
  });

  it("holds a large limit across two instances within (batch - 1) per instance", async () => {
    const opts = options(1000);
    const a = requestLimiter(async () => t.store.db, opts);
    const b = requestLimiter(async () => (other ?? t.store).db, opts);
    let granted = 0;
    for (let i = 0; i < 1200; i++) if ((await (i % 3 ? a : b).consume("subject", "one-key")).ok) granted += 1;
    const slack = 2 * (leaseSize(1000) - 1);
    expect(granted).toBeGreaterThanOrEqual(1000 - slack);
    expect(granted).toBeLessThanOrEqual(1000 + slack);
    // Refused with a clear message and a wait.
    const refused = await a.consume("subject", "one-key");
    expect(refused).toMatchObject({
      ok: false,
      scope: "subject",
      message: expect.stringMatching(/^rate limit exceeded: too many test requests from this account; retry after \d+ s$/),
    });
  });

  it("is exact for small limits, and keys (subject, address, other subjects) are independent", async () => {
    const opts = options(7);
    const a = requestLimiter(async () => t.store.db, opts);
    const b = requestLimiter(async () => (other ?? t.store).db, opts);
    const results: boolean[] = [];
    for (let i = 0; i < 10; i++) results.push((await (i % 2 ? a : b).consume("address", "10.0.0.1")).ok);
    expect(results).toEqual([true, true, true, true, true, true, true, false, false, false]);
    expect((await a.consume("subject", "10.0.0.1")).ok).toBe(true);
    expect((await b.consume("address", "10.0.0.2")).ok).toBe(true);
  });
});
