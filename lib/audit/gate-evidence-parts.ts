// Gate evidence travels with the audit export: after the manifest, its signature and the key, one
// entry per gate run in the exported time range, `gate-evidence.<sha256>.json`, holding the exact
// signed bytes and their signature. Signed by the same audit signing key, so the verifier checks
// each against the archive's key and its name's hash (verify-archive.ts).
import { createHash } from "node:crypto";
import { and, asc, gte, lte, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { gateEvidence } from "@/db/schema";

export const GATE_EVIDENCE_ENTRY = /^gate-evidence\.([0-9a-f]{64})\.json$/;
export const MAX_GATE_EVIDENCE_BYTES = 4 * 1024 * 1024;

export interface GateEvidenceEntry {
  signature: string;
  keyFingerprint: string;
  signedBytes: string;
}

export async function gateEvidenceParts(db: Db, range: { from?: Date; to?: Date }): Promise<Array<{ name: string; bytes: Buffer }>> {
  const where: SQL[] = [];
  if (range.from) where.push(gte(gateEvidence.createdAt, range.from));
  if (range.to) where.push(lte(gateEvidence.createdAt, range.to));
  const rows = await db
    .select()
    .from(gateEvidence)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(gateEvidence.createdAt), asc(gateEvidence.hash));
  return rows.map((r) => {
    const body: GateEvidenceEntry = { signature: r.signature, keyFingerprint: r.keyFingerprint, signedBytes: r.document };
    return { name: `gate-evidence.${r.hash}.json`, bytes: Buffer.from(JSON.stringify(body)) };
  });
}

/** A problem with one evidence entry, or null when its hash and signature hold. */
export function checkGateEvidenceEntry(
  name: string,
  bytes: Buffer,
  verify: (payload: string, signature: string) => boolean,
): string | null {
  const hash = GATE_EVIDENCE_ENTRY.exec(name)?.[1];
  if (!hash) return "not a gate evidence entry";
  let body: Partial<GateEvidenceEntry>;
  try {
    body = JSON.parse(bytes.toString("utf8")) as Partial<GateEvidenceEntry>;
  } catch {
    return `${name} is not JSON`;
  }
  if (typeof body.signedBytes !== "string" || typeof body.signature !== "string") return `${name} lacks its signed bytes or signature`;
  if (createHash("sha256").update(body.signedBytes).digest("hex") !== hash) return `${name} does not hash to its name`;
  if (!verify(body.signedBytes, body.signature)) return `${name} is not signed by the archive's key`;
  return null;
}
