// The demo's gate testers: for every seeded list_repositories canary flow, at its seeded share, the
// gate finds a browser test user inside the share (the share is not raised) and a second user of
// another tenant; a subject outside the share is still refused (the canary rule is unchanged).
import { describe, expect, it } from "vitest";
import type { Flow } from "@/db/schema";
import { allDevAccounts, checkLogin, DEMO_PASSWORD } from "@/lib/auth/dev-idp/accounts";
import { DEMO_CLIENT_PROFILES } from "@/lib/demo/clients";
import { DEMO_GATE_TESTERS } from "@/lib/demo/accounts";
import { admits } from "@/lib/gates/target";
import { inCohort } from "@/lib/policy/flows";

const canary = (id: string, canaryPercent: number) => ({ id, stage: "canary", canaryPercent }) as Flow;

describe("gate testers in the demo", () => {
  const flows = DEMO_CLIENT_PROFILES.filter((p) => p.profileId !== "ctl").map((p) => canary(`list_repositories:${p.profileId}`, 20));

  it("every seeded list_repositories flow at 20% admits a gate tester, and no end user is needed", () => {
    for (const flow of flows) {
      const tester = DEMO_GATE_TESTERS.find((t) => admits(flow, t.subject));
      expect(tester, flow.id).toBeDefined();
    }
    // Not vacuous: some of these flows admit none of the three end users.
    expect(
      flows.some(
        (f) => !allDevAccounts().some((a) => a.subject.startsWith("user-") && !a.subject.startsWith("user-gate-") && admits(f, a.subject)),
      ),
    ).toBe(true);
  });

  it("leaves the canary rule alone: a tester outside a flow's share is refused, and at 0% nobody is admitted", () => {
    const flow = flows[0]!;
    const outside = DEMO_GATE_TESTERS.find((t) => !inCohort(t.subject, flow.id, 20));
    expect(outside).toBeDefined();
    expect(admits(flow, outside!.subject)).toBe(false);
    expect(DEMO_GATE_TESTERS.some((t) => admits(canary(flow.id, 0), t.subject))).toBe(false);
  });

  it("the testers sign in at the development provider like any demo account", () => {
    expect(checkLogin("tester01", DEMO_PASSWORD)?.subject).toBe("user-gate-tester-01");
    expect(checkLogin("tester01", "wrong")).toBeUndefined();
  });
});
