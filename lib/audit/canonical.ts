// The canonical serialisation the chain is built on (documented in the README, "Audit log").
//
//   hash = lowercase hex SHA-256 of the RFC 8785 (JCS) serialisation of
//     { v: 1, seq, ts, actorType, actorId, action, targetType, targetId, detail, prevHash }
//
// `ts` is ISO 8601 UTC with milliseconds; the first entry's prevHash is 64 zeros. An exported
// NDJSON line is the JCS serialisation of the same object plus `hash`, so a verifier needs nothing
// but this file's rules and the line itself.
import { createHash } from "node:crypto";
import canonicalizeJson from "canonicalize";
import { actorType } from "@/db/schema";

export const GENESIS_HASH = "0".repeat(64);
export const CANONICAL_VERSION = 1;

export type ActorType = (typeof actorType.enumValues)[number];
export const ACTOR_TYPES = actorType.enumValues;

export type AuditDetail = Record<string, string | number | boolean | null | string[]>;

export interface AuditEntry {
  seq: number;
  ts: string;
  actorType: ActorType;
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  detail: AuditDetail;
  prevHash: string;
  hash: string;
}

export function canonicalize(value: unknown): string {
  const out = canonicalizeJson(value);
  if (out === undefined) throw new Error("value cannot be canonicalised");
  return out;
}

export function hashedBody(entry: Omit<AuditEntry, "hash">): string {
  return canonicalize({
    v: CANONICAL_VERSION,
    seq: entry.seq,
    ts: entry.ts,
    actorType: entry.actorType,
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    detail: entry.detail,
    prevHash: entry.prevHash,
  });
}

export function computeHash(entry: Omit<AuditEntry, "hash">): string {
  return createHash("sha256").update(hashedBody(entry)).digest("hex");
}

/** One export line (without the trailing newline). */
export function entryLine(entry: AuditEntry): string {
  return canonicalize({ ...entry, v: CANONICAL_VERSION });
}
