// Gate evidence for tests that need a flow's gates in a given state without driving the flow:
// a real signed evidence document (lib/gates/evidence.ts) stored with one gate record per gate,
// exactly as a gate run stores them, so what promotion checks is what a run would have left.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, gateRuns } from "@/db/schema";
import { loadSigner, type Signer } from "@/lib/audit/signing";
import { appUrl } from "@/lib/auth/oidc-config";
import { buildEvidence, signEvidence, storeEvidence } from "@/lib/gates/evidence";
import type { CheckOutcome } from "@/lib/gates/types";
import { GATES, type Gate } from "@/lib/policy/gates";

export async function recordGateEvidence(
  db: Db,
  flowId: string,
  actor: string,
  opts: { failing?: Gate; signer?: Signer; target?: string } = {},
): Promise<string> {
  const [flow] = await db.select().from(flows).where(eq(flows.id, flowId));
  if (!flow) throw new Error(`flow ${flowId} does not exist`);
  const outcome = (gate: Gate): CheckOutcome => (gate === opts.failing ? "failed" : "passed");
  const gates = GATES.map((gate) => ({
    gate,
    outcome: outcome(gate),
    reason: gate === opts.failing ? "planted failure" : null,
    checks: [{ name: `${gate}.planted`, outcome: outcome(gate), detail: "set up by the test", ms: 1 }],
    ms: 1,
  }));
  const evidence = buildEvidence({
    runId: randomBytes(8).toString("hex"),
    flow,
    target: opts.target ?? new URL(appUrl()).origin,
    tokens: "minted",
    profile: { profileId: flow.profileId, source: "profile-default", variants: [] },
    ranBy: actor,
    startedAt: new Date(),
    gates,
  });
  const signed = signEvidence(evidence, opts.signer ?? loadSigner());
  await db.transaction(async (tx) => {
    await storeEvidence(tx, evidence, signed);
    for (const g of gates)
      await tx.insert(gateRuns).values({
        flowId,
        gate: g.gate,
        passed: g.outcome === "passed",
        fingerprint: flow.fingerprint,
        resultHash: signed.hash,
        ranBy: actor,
      });
  });
  return signed.hash;
}
