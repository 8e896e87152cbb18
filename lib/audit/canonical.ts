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

// JCS for this one fixed shape, written out: the keys in JCS order (UTF-16 code-unit order), strings
// escaped by JSON.stringify exactly as JCS specifies, integers as written; only `detail` (small
// and free-form) goes through the general canonicaliser. Several times faster than canonicalising
// the whole object, which matters for exports and verification of millions of entries. A unit
// test checks it byte for byte against the library on generated entries.
// JCS (and the library) refuse lone surrogates: so does this, so both paths accept the same inputs.
const q = (v: string): string => {
  if (!(v as string & { isWellFormed(): boolean }).isWellFormed()) throw new Error("Lone surrogate is not allowed");
  return JSON.stringify(v);
};
function fixedShape(entry: Omit<AuditEntry, "hash">, hash: string | undefined): string {
  if (!Number.isSafeInteger(entry.seq)) throw new Error("seq must be a safe integer");
  return (
    `{"action":${q(entry.action)},"actorId":${q(entry.actorId)},"actorType":${q(entry.actorType)},"detail":${canonicalize(entry.detail)}` +
    (hash === undefined ? "" : `,"hash":${q(hash)}`) +
    `,"prevHash":${q(entry.prevHash)},"seq":${entry.seq},"targetId":${q(entry.targetId)},"targetType":${q(entry.targetType)},"ts":${q(entry.ts)},"v":${CANONICAL_VERSION}}`
  );
}

export function hashedBody(entry: Omit<AuditEntry, "hash">): string {
  return fixedShape(entry, undefined);
}

export function computeHash(entry: Omit<AuditEntry, "hash">): string {
  return createHash("sha256").update(hashedBody(entry)).digest("hex");
}

/** One export line (without the trailing newline). */
export function entryLine(entry: AuditEntry): string {
  return fixedShape(entry, entry.hash);
}
