// The sign-in throttle's rules without HTTP: counting per login (case- and space-insensitive) and
// per address, blocking past the threshold, a success clearing only its login, and which address
// counts behind a proxy.
import { describe, expect, it } from "vitest";
import { createSignInThrottle } from "@/lib/auth/dev-idp/sign-in-throttle";

const settings = { maxFailuresPerLogin: 2, maxFailuresPerAddress: 4, windowSeconds: 60, blockSeconds: 120, delayStepMs: 0 };

describe("sign-in throttle", () => {
  it("blocks a login after its threshold, whatever its case, and says for how long", async () => {
    const t = createSignInThrottle(settings);
    expect(await t.retryAfter("alice", "10.0.0.1")).toBeUndefined();
    await t.failed("Alice", "10.0.0.1");
    await t.failed(" alice ", "10.0.0.2");
    const wait = await t.retryAfter("ALICE", "10.0.0.3");
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(120);
    expect(await t.retryAfter("bob", "10.0.0.3")).toBeUndefined();
  });

  it("blocks an address spreading failures over logins; a success clears only that login", async () => {
    const t = createSignInThrottle(settings);
    await t.failed("a", "10.0.0.9");
    await t.succeeded("a");
    expect(await t.retryAfter("a", "10.0.0.8")).toBeUndefined();
    for (const login of ["b", "c", "d"]) await t.failed(login, "10.0.0.9");
    expect(await t.retryAfter("zed", "10.0.0.9")).toBeGreaterThan(0);
    expect(await t.retryAfter("zed", "10.0.0.10")).toBeUndefined();
  });
});
