// The verifiers' half of the chain rules, independent of the writer: every line is re-serialised by
// the `canonicalize` library (RFC 8785), never by the writer's fast path in canonical.ts, so a
// divergence of the fast path from the RFC fails verification here instead of agreeing with itself.
//
// It needs nothing from the manifest while it reads (the archive puts the manifest last): it checks
// each entry's hash and its link to the entry before, and keeps a summary (count, first and last
// seq and hash) that is compared with the manifest once that arrives.
import { createHash } from "node:crypto";
import { canonicalize } from "./canonical";
import type { Manifest } from "./manifest";

export type LineFailure = { ok: false; problem: string; line: number; seq?: number };

export interface ChainSummary {
  count: number;
  firstSeq: number | null;
  firstPrevHash: string | null;
  lastSeq: number | null;
  lastHash: string | null;
}

const ENTRY_KEYS = 11; // v + the nine hashed fields + hash
const HEX64 = /^[0-9a-f]{64}$/;
const HASH_MEMBER = ',"hash":"';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function jcs(value: unknown): string | undefined {
  try {
    return canonicalize(value);
  } catch {
    return undefined; // lone surrogates and other values JCS cannot represent
  }
}

export class ChainChecker {
  private summary: ChainSummary = { count: 0, firstSeq: null, firstPrevHash: null, lastSeq: null, lastHash: null };

  get count(): number {
    return this.summary.count;
  }

  result(): ChainSummary {
    return { ...this.summary };
  }

  /** One NDJSON line: it must be exactly the JCS form of its entry. */
  checkLine(line: string, lineNo: number): LineFailure | undefined {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, problem: `line ${lineNo}: not valid JSON`, line: lineNo };
    }
    const shape = this.shape(value, lineNo);
    if (shape) return shape;
    const entry = value as Record<string, unknown> & { hash: string };
    if (jcs(entry) !== line)
      return { ok: false, problem: `line ${lineNo}: not in canonical (RFC 8785) form`, line: lineNo, seq: entry.seq as number };
    // The line is JCS of body + hash; JCS of the body alone is the same bytes without the hash
    // member (members are sorted, `hash` follows `detail`, so it is never first). The last
    // occurrence is the top-level one: nothing after it can hold an unescaped quote.
    const at = line.lastIndexOf(HASH_MEMBER);
    const body = line.slice(0, at) + line.slice(at + HASH_MEMBER.length + 64 + 1);
    return this.link(entry, body, lineNo);
  }

  /** One entry rebuilt from another format (CSV): its body is canonicalised here. */
  checkEntry(value: unknown, lineNo: number): LineFailure | undefined {
    const shape = this.shape(value, lineNo);
    if (shape) return shape;
    const { hash: _hash, ...rest } = value as Record<string, unknown>;
    void _hash;
    const body = jcs(rest);
    if (body === undefined) return { ok: false, problem: `line ${lineNo}: entry cannot be canonicalised (RFC 8785)`, line: lineNo };
    return this.link(value as Record<string, unknown> & { hash: string }, body, lineNo);
  }

  private shape(value: unknown, lineNo: number): LineFailure | undefined {
    const fail = (problem: string): LineFailure => ({ ok: false, problem: `line ${lineNo}: ${problem}`, line: lineNo });
    if (!isPlainObject(value)) return fail("not an audit entry");
    if (Object.keys(value).length !== ENTRY_KEYS || value.v !== 1 || typeof value.hash !== "string" || !HEX64.test(value.hash))
      return fail("not an audit entry (fields added or missing)");
    if (!Number.isSafeInteger(value.seq) || (value.seq as number) < 1) return fail("seq is not a whole number");
    if (typeof value.prevHash !== "string") return fail("prevHash is not a string");
    return undefined;
  }

  private link(e: Record<string, unknown> & { hash: string }, body: string, lineNo: number): LineFailure | undefined {
    const seq = e.seq as number;
    const fail = (problem: string): LineFailure => ({ ok: false, problem: `line ${lineNo}: ${problem}`, line: lineNo, seq });
    const s = this.summary;
    if (s.lastSeq !== null && seq !== s.lastSeq + 1) {
      const expected = s.lastSeq + 1;
      const why =
        seq > expected ? "an entry was removed here or the lines were reordered" : "lines were reordered or an entry was duplicated";
      return fail(`expected seq ${expected}, found ${seq}: ${why}`);
    }
    if (createHash("sha256").update(body).digest("hex") !== e.hash)
      return fail(`entry ${seq} was changed (its hash does not match its content)`);
    if (s.lastHash !== null && e.prevHash !== s.lastHash) return fail(`entry ${seq} does not link to the entry before it`);
    if (s.count === 0) {
      s.firstSeq = seq;
      s.firstPrevHash = e.prevHash as string;
    }
    s.count++;
    s.lastSeq = seq;
    s.lastHash = e.hash;
    return undefined;
  }
}

/** What the data said against what the signed manifest says; undefined when they agree. */
export function compareWithManifest(s: ChainSummary, m: Manifest, fileSha256: string): string | undefined {
  if (s.count !== m.count) {
    const why = s.count < m.count ? "entries removed at the end" : "entries added";
    return `the data file holds ${s.count} entries but the manifest says ${m.count} (${why})`;
  }
  if (s.firstSeq !== m.firstSeq || s.firstPrevHash !== m.firstPrevHash) return "the first entry is not the one the manifest names";
  if (s.lastSeq !== m.lastSeq || s.lastHash !== m.lastHash) return "the last entry is not the one the manifest names";
  // Every line checked out; anything else that differs (whitespace, line endings) shows here.
  if (fileSha256 !== m.fileSha256) return "the data file differs from the signed file hash";
  return undefined;
}
