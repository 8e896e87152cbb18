// The server's in-memory policy: a kill switch, a flow or a client profile change written by another process (here,
// another connection pool on the same database) is seen by the next read, because the database
// notifies the change; expiry is applied at read time; a missed notification is bounded by the
// snapshot's maximum age.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { flows, killSwitches } from "@/db/schema";
import { removeClientProfile, setClientProfile } from "@/lib/policy/client-profiles";
import { engageKillSwitch } from "@/lib/policy/kill-switch";
import { cachedPolicy, type CachedPolicy } from "@/lib/policy/policy-source";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let other: Store;
let policy: CachedPolicy;
const INITIAL = { fingerprint: "0".repeat(64), inputs: {} };

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs: number): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - start > withinMs) return { value, ms: Date.now() - start };
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  t = await createTestStore();
  // A second writer: another pool on the same PostgreSQL database, or the same embedded store.
  other = t.config.kind === "postgres" ? await openStore(t.config) : t.store;
  policy = await cachedPolicy(t.store, 60_000); // a long maximum age: only the notification can refresh it
});
afterAll(async () => {
  await policy?.close();
  if (other !== t.store) await other?.close();
  await t.dispose();
});

describe("cached policy", () => {
  it("sees a kill switch engaged elsewhere at once, and drops it when it expires", async () => {
    expect(await policy.killSwitches()).toEqual([]);
    await engageKillSwitch(
      other.db,
      { type: "operator", id: "op-operator-0002" },
      { scope: "mode:form", reason: "cache test", expiresAt: new Date(Date.now() + 60_000) },
    );
    // The cache's maximum age is a minute: seeing the change within the wait proves the
    // notification refreshed it (no wall-clock bound: speed is measured in bench/).
    const seen = await eventually(
      () => policy.killSwitches(),
      (s) => s.length === 1,
      15_000,
    );
    expect(seen.value.map((s) => s.scope)).toEqual(["mode:form"]);
    expect(await policy.killSwitches(new Date(Date.now() + 120_000))).toEqual([]);
  });

  it("sees a flow change made elsewhere, and creates unknown flows at FLOW_NEW_STAGE (off)", async () => {
    const flow = await policy.flow("generate_report", "cache-client", INITIAL);
    expect(flow).toMatchObject({ id: "generate_report:cache-client", profileId: "cache-client", stage: "off", canaryPercent: 0 });
    await other.db.update(flows).set({ stage: "rolled_back" }).where(eq(flows.id, flow.id));
    const seen = await eventually(
      () => policy.flow("generate_report", "cache-client", INITIAL),
      (f) => f.stage === "rolled_back",
      15_000,
    );
    expect(seen.value.stage).toBe("rolled_back");
  });

  it("sees a client profile mapped or removed elsewhere", async () => {
    expect(await policy.profileFor("cache-oauth-client")).toBe("unregistered");
    await setClientProfile(other.db, "op-admin-0001", {
      clientId: "cache-oauth-client",
      profileId: "cache-profile",
      displayName: "Cache test",
    });
    const mapped = await eventually(
      () => policy.profileFor("cache-oauth-client"),
      (p) => p === "cache-profile",
      15_000,
    );
    expect(mapped.value).toBe("cache-profile");
    await removeClientProfile(other.db, "op-admin-0001", { clientId: "cache-oauth-client" });
    const removed = await eventually(
      () => policy.profileFor("cache-oauth-client"),
      (p) => p === "unregistered",
      15_000,
    );
    expect(removed.value).toBe("unregistered");
  });

  it("reloads a snapshot older than its maximum age even without a notification", async () => {
    const short = await cachedPolicy(t.store, 50);
    try {
      await short.killSwitches();
      await short.close(); // no more notifications reach it
      await other.db.update(killSwitches).set({ active: false });
      await new Promise((r) => setTimeout(r, 80));
      expect(await short.killSwitches()).toEqual([]);
    } finally {
      await short.close();
    }
  });
});
