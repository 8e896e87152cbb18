// Release gates: evidence from the five gate suites (contract, privacy, phishing, recovery,
// accessibility), each run recorded against the flow's version fingerprint with a hash of its
// result file. Evidence recorded against another fingerprint is stale; promotion needs all five
// passing and fresh, checked when the promotion is applied, not only when it was requested.
import { and, desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { flows, gateName, gateRuns, type Flow } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";

export type Gate = (typeof gateName.enumValues)[number];
export const GATES = gateName.enumValues;

export interface GateState {
  gate: Gate;
  status: "passed" | "failed" | "missing" | "stale";
  ranAt: Date | null;
}

export async function gateStatus(db: DbOrTx, flow: Flow): Promise<GateState[]> {
  const out: GateState[] = [];
  for (const gate of GATES) {
    const [last] = await db.select().from(gateRuns).where(and(eq(gateRuns.flowId, flow.id), eq(gateRuns.gate, gate))).orderBy(desc(gateRuns.ranAt), desc(gateRuns.id)).limit(1);
    out.push({ gate, ranAt: last?.ranAt ?? null, status: !last ? "missing" : last.fingerprint !== flow.fingerprint ? "stale" : last.passed ? "passed" : "failed" });
  }
  return out;
}

export function gatesBlocking(states: GateState[]): string[] {
  return states.filter((s) => s.status !== "passed").map((s) => `${s.gate} ${s.status}`);
}

export async function recordGateRun(db: Db, actor: string, input: { flowId: string; gate: Gate; passed: boolean; resultHash: string }) {
  return db.transaction(async (tx) => {
    const [flow] = await tx.select().from(flows).where(eq(flows.id, input.flowId)).limit(1);
    if (!flow) throw new Error(`flow ${input.flowId} does not exist`);
    const [row] = await tx.insert(gateRuns).values({ flowId: flow.id, gate: input.gate, passed: input.passed, fingerprint: flow.fingerprint, resultHash: input.resultHash, ranBy: actor }).returning();
    await appendAudit(tx, { actorType: "operator", actorId: actor, action: AUDIT_ACTIONS.gateRecorded, targetType: "flow", targetId: flow.id, detail: { gate: input.gate, passed: input.passed, fingerprint: flow.fingerprint, result_sha256: input.resultHash } });
    return row!;
  });
}
