// Release gates: evidence from the five gates (contract, privacy, phishing, recovery,
// accessibility), each run recorded against the flow's version fingerprint with the hash of the
// signed evidence document it came from (lib/gates). A gate counts as passed only when that
// document exists, hashes to the recorded value, carries a valid signature by this deployment's
// audit key, is about this flow and this fingerprint, and itself says the gate passed: a gate row
// alone is nobody's word (a releaser once could "record" a pass by pointing at any file).
// Evidence recorded against another fingerprint is stale; promotion needs all five passing and
// fresh, checked when the promotion is applied, not only when it was requested.
import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { gateEvidence, gateName, gateRuns, type Flow, type GateEvidenceRow } from "@/db/schema";
import { loadSigner, publicKeyFromBase64, verifySignature } from "@/lib/audit/signing";
import { appUrl } from "@/lib/auth/oidc-config";
import { readSetting } from "@/lib/config/schema";

export type Gate = (typeof gateName.enumValues)[number];
export const GATES = gateName.enumValues;

export interface GateState {
  gate: Gate;
  /** "unverified": the latest run claims a pass its signed evidence does not back. */
  status: "passed" | "failed" | "missing" | "stale" | "unverified";
  ranAt: Date | null;
  /** Why a claimed pass is not accepted ("unverified" only). */
  reason?: string;
}

// The parts of an evidence document (lib/gates/evidence.ts) the check reads.
const evidenceClaims = z.object({
  target: z.string(),
  flow: z.object({ id: z.string(), fingerprint: z.string() }),
  gates: z.array(z.object({ gate: z.string(), outcome: z.string() })),
});

/** Outcomes that let a gate pass (lib/gates/types.ts `gatePassed`). */
const PASSING_OUTCOMES = new Set(["passed", "not_applicable"]);

export type EvidenceKeyCheck = (row: GateEvidenceRow) => boolean;

/**
 * The deployments whose gate runs count here: this one (APP_URL) and the origins an operator lists
 * in GATES_ACCEPTED_TARGETS (a staging that runs the same release). A run against any other target
 * (a friendlier build, a laptop) proves nothing about this deployment.
 */
export function acceptedGateTargets(env = process.env): ReadonlySet<string> {
  return new Set([new URL(appUrl(env)).origin, ...readSetting(env, "GATES_ACCEPTED_TARGETS").map((o) => new URL(o).origin)]);
}

/** Checks a document's signature with this deployment's audit key (loaded only when needed). */
export function auditKeyCheck(): EvidenceKeyCheck {
  let key: { fingerprint: string; publicKey: ReturnType<typeof publicKeyFromBase64> } | undefined;
  return (row) => {
    if (!key) {
      const signer = loadSigner();
      key = { fingerprint: signer.keyFingerprint, publicKey: publicKeyFromBase64(signer.publicKey) };
    }
    return row.keyFingerprint === key.fingerprint && verifySignature(key.publicKey, row.document, row.signature);
  };
}

/** Why `evidence` does not back a pass of `gate` for `flow`, or undefined when it does. */
export function evidenceDoubt(
  flow: Flow,
  gate: Gate,
  hash: string,
  evidence: GateEvidenceRow | undefined,
  keyCheck: EvidenceKeyCheck,
  targets: ReadonlySet<string> = acceptedGateTargets(),
): string | undefined {
  if (!evidence) return "no signed evidence document has this hash";
  if (createHash("sha256").update(evidence.document).digest("hex") !== hash)
    return "the evidence document does not hash to the recorded value";
  if (evidence.flowId !== flow.id || evidence.fingerprint !== flow.fingerprint) return "the evidence is about another flow or version";
  let claims: z.infer<typeof evidenceClaims>;
  try {
    claims = evidenceClaims.parse(JSON.parse(evidence.document));
  } catch {
    return "the evidence document cannot be read";
  }
  if (claims.flow.id !== flow.id || claims.flow.fingerprint !== flow.fingerprint) return "the evidence is about another flow or version";
  if (!targets.has(originOf(claims.target)) || originOf(evidence.target) !== originOf(claims.target))
    return `the gates ran against ${claims.target}, not this deployment or an accepted target (GATES_ACCEPTED_TARGETS)`;
  const result = claims.gates.find((g) => g.gate === gate);
  if (!result) return `the evidence has no ${gate} result`;
  if (!PASSING_OUTCOMES.has(result.outcome)) return `the evidence says ${gate} ${result.outcome.replace(/_/g, " ")}`;
  if (!keyCheck(evidence)) return "the evidence's signature does not verify with this deployment's audit key";
  return undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(not a URL)";
  }
}

export async function gateStatus(db: DbOrTx, flow: Flow, keyCheck: EvidenceKeyCheck = auditKeyCheck()): Promise<GateState[]> {
  const out: GateState[] = [];
  const targets = acceptedGateTargets();
  for (const gate of GATES) {
    const [last] = await db
      .select()
      .from(gateRuns)
      .where(and(eq(gateRuns.flowId, flow.id), eq(gateRuns.gate, gate)))
      .orderBy(desc(gateRuns.ranAt), desc(gateRuns.id))
      .limit(1);
    if (!last) out.push({ gate, ranAt: null, status: "missing" });
    else if (last.fingerprint !== flow.fingerprint) out.push({ gate, ranAt: last.ranAt, status: "stale" });
    else if (!last.passed) out.push({ gate, ranAt: last.ranAt, status: "failed" });
    else {
      const [evidence] = await db.select().from(gateEvidence).where(eq(gateEvidence.hash, last.resultHash)).limit(1);
      const reason = evidenceDoubt(flow, gate, last.resultHash, evidence, keyCheck, targets);
      out.push(reason ? { gate, ranAt: last.ranAt, status: "unverified", reason } : { gate, ranAt: last.ranAt, status: "passed" });
    }
  }
  return out;
}

export function gatesBlocking(states: GateState[]): string[] {
  return states.filter((s) => s.status !== "passed").map((s) => `${s.gate} ${s.status}${s.reason ? ` (${s.reason})` : ""}`);
}
