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
import type { AuditDetail } from "@/db/json-columns";
import { actorType } from "@/db/schema";

export const GENESIS_HASH = "0".repeat(64);
export const CANONICAL_VERSION = 1;

export type ActorType = (typeof actorType.enumValues)[number];

// The column type (db/json-columns.ts) is the one definition; the chain hashes exactly that shape.
export type { AuditDetail };

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
// the whole object, which matters for the writer and the exporter. A property-based unit test
// checks it byte for byte against the library on generated entries; the verifiers never use it.
// JCS (and the library) refuse lone surrogates: so does this, so both paths accept the same inputs.
const q = (v: string): string => {
  if (!(v as string & { isWellFormed(): boolean }).isWellFormed()) throw new Error("Lone surrogate is not allowed");
  return JSON.stringify(v);
};
/**
 * JCS of a flat detail (what value-free details are: lib/audit/value-free.ts): keys sorted by
 * UTF-16 code units (Array.prototype.sort's default order, which is JCS's), strings escaped as
 * above, finite numbers as ECMAScript prints them (JCS's rule), booleans, null, arrays of strings.
 * Anything else (a nested object, a non-finite number) goes through the general canonicaliser, so
 * both paths refuse and accept the same inputs. The general one costs about as much as the rest of
 * the entry together; the export and the writer serialise every entry.
 */
function detailJcs(detail: AuditDetail): string {
  const keys = Object.keys(detail).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v: unknown = detail[k];
    let s: string;
    if (typeof v === "string") s = q(v);
    else if (typeof v === "number" && Number.isFinite(v)) s = JSON.stringify(v);
    else if (v === null || typeof v === "boolean") s = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) s = `[${v.map(q).join(",")}]`;
    else return canonicalize(detail);
    out += `${i === 0 ? "" : ","}${q(k)}:${s}`;
  }
  return out + "}";
}

/** The hashed fields, in JCS order (plus `v`, a constant); `hash` goes between detail and prevHash. */
export const HASHED_FIELDS = ["action", "actorId", "actorType", "detail", "prevHash", "seq", "targetId", "targetType", "ts"] as const;

function fixedShape(entry: Omit<AuditEntry, "hash"> & { hash?: string }, hash: string | undefined): string {
  // Every field is taken out by name: a field added to AuditEntry and not written below leaves
  // `rest` non-empty, which fails to compile here (and, for callers outside TypeScript, at run time).
  const { action, actorId, actorType, detail, prevHash, seq, targetId, targetType, ts, hash: _hash, ...rest } = entry;
  void _hash;
  const unknownFields: Record<string, never> = rest;
  if (Object.keys(unknownFields).length > 0)
    throw new Error(`audit entry has fields the canonical form does not know: ${Object.keys(unknownFields).length}`);
  if (!Number.isSafeInteger(seq)) throw new Error("seq must be a safe integer");
  return (
    `{"action":${q(action)},"actorId":${q(actorId)},"actorType":${q(actorType)},"detail":${detailJcs(detail)}` +
    (hash === undefined ? "" : `,"hash":${q(hash)}`) +
    `,"prevHash":${q(prevHash)},"seq":${seq},"targetId":${q(targetId)},"targetType":${q(targetType)},"ts":${q(ts)},"v":${CANONICAL_VERSION}}`
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

/**
 * The export line from an already serialised body and its hash: JCS of body + hash is the body with
 * the hash member inserted before `prevHash` (the last `,"prevHash":"` is the top-level one: no
 * later member can hold an unescaped quote). Saves serialising every exported entry twice.
 */
export function lineFromBody(body: string, hash: string): string {
  const at = body.lastIndexOf(',"prevHash":"');
  return `${body.slice(0, at)},"hash":${q(hash)}${body.slice(at)}`;
}
