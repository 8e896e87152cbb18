// The evidence document of one gate run: flow, fingerprint, target, the client profile used and
// every check with its outcome and timing. Canonical JSON, signed with the audit signing key and
// stored; its SHA-256 is what each gate record keeps (gate_runs.result_hash).
import { createHash } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { gateEvidence, type Flow } from "@/db/schema";
import { canonicalize } from "@/lib/audit/canonical";
import type { Signer } from "@/lib/audit/signing";
import type { ClientProfileUsed } from "./client-variants";
import type { GateResult } from "./types";
import { gatePassed } from "./types";

export const EVIDENCE_KIND = "elicitation-gateway/gate-evidence";

export interface EvidenceDocument {
  kind: typeof EVIDENCE_KIND;
  version: 1;
  runId: string;
  flow: { id: string; workflow: string; profile: string; fingerprint: string };
  target: string;
  tokens: "minted" | "given";
  clientProfile: ClientProfileUsed;
  ranBy: string;
  startedAt: string;
  finishedAt: string;
  passed: boolean;
  gates: GateResult[];
}

export function buildEvidence(input: {
  runId: string;
  flow: Flow;
  target: string;
  tokens: "minted" | "given";
  profile: ClientProfileUsed;
  ranBy: string;
  startedAt: Date;
  gates: GateResult[];
}): EvidenceDocument {
  return {
    kind: EVIDENCE_KIND,
    version: 1,
    runId: input.runId,
    flow: { id: input.flow.id, workflow: input.flow.workflow, profile: input.flow.profileId, fingerprint: input.flow.fingerprint },
    target: input.target,
    tokens: input.tokens,
    clientProfile: input.profile,
    ranBy: input.ranBy,
    startedAt: input.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    passed: input.gates.every(gatePassed),
    gates: input.gates,
  };
}

export interface SignedEvidence {
  hash: string;
  document: string;
  signature: string;
  keyFingerprint: string;
}

export function signEvidence(doc: EvidenceDocument, signer: Signer): SignedEvidence {
  const document = canonicalize(doc);
  return {
    hash: createHash("sha256").update(document).digest("hex"),
    document,
    signature: signer.sign(document),
    keyFingerprint: signer.keyFingerprint,
  };
}

export async function storeEvidence(tx: Tx, doc: EvidenceDocument, signed: SignedEvidence): Promise<void> {
  await tx.insert(gateEvidence).values({
    hash: signed.hash,
    flowId: doc.flow.id,
    fingerprint: doc.flow.fingerprint,
    target: doc.target,
    passed: doc.passed,
    document: signed.document,
    signature: signed.signature,
    keyFingerprint: signed.keyFingerprint,
    ranBy: doc.ranBy,
  });
}

export async function evidenceByHash(db: DbOrTx, hash: string) {
  const [row] = await db.select().from(gateEvidence).where(eq(gateEvidence.hash, hash)).limit(1);
  return row;
}

export async function latestEvidence(db: DbOrTx, flowId: string, limit = 5) {
  return db.select().from(gateEvidence).where(eq(gateEvidence.flowId, flowId)).orderBy(desc(gateEvidence.createdAt)).limit(limit);
}

/** What the flows page shows of a flow's latest evidence (parsed from the stored document). */
export async function latestEvidenceSummary(db: DbOrTx, flowId: string) {
  const [row] = await latestEvidence(db, flowId, 1);
  if (!row) return undefined;
  const doc = JSON.parse(row.document) as EvidenceDocument;
  return {
    hash: row.hash,
    createdAt: row.createdAt,
    ranBy: row.ranBy,
    target: row.target,
    passed: row.passed,
    gates: doc.gates.map((g) => ({ gate: g.gate, outcome: g.outcome, reason: g.reason, checks: g.checks.length })),
  };
}
