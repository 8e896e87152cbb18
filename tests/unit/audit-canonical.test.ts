import { createHash } from "node:crypto";
import canonicalizeLibrary from "canonicalize";
import fc from "fast-check";
import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { actorType, auditLog } from "@/db/schema";
import { ChainChecker } from "@/lib/audit/chain-checker";
import { computeHash, entryLine, GENESIS_HASH, HASHED_FIELDS, hashedBody, lineFromBody, type AuditEntry } from "@/lib/audit/canonical";

const body = {
  seq: 1,
  ts: "2026-11-30T09:00:00.000Z",
  actorType: "operator" as const,
  actorId: "op-1",
  action: "kill_switch.on",
  targetType: "kill_switch",
  targetId: "global",
  detail: { z: 1, a: ["x", "y"], m: null },
  prevHash: GENESIS_HASH,
};

describe("canonical audit serialisation (README, Audit log)", () => {
  it("serialises with sorted keys and no whitespace (RFC 8785)", () => {
    // Written out by hand from the documented recipe, so a change to the recipe fails here.
    const expected =
      '{"action":"kill_switch.on","actorId":"op-1","actorType":"operator","detail":{"a":["x","y"],"m":null,"z":1},' +
      `"prevHash":"${GENESIS_HASH}","seq":1,"targetId":"global","targetType":"kill_switch","ts":"2026-11-30T09:00:00.000Z","v":1}`;
    expect(hashedBody(body)).toBe(expected);
    expect(computeHash(body)).toBe(createHash("sha256").update(expected).digest("hex"));
  });

  it("does not depend on the order keys were written in", () => {
    const reordered = { ...body, detail: { m: null, a: ["x", "y"], z: 1 } };
    expect(computeHash(reordered)).toBe(computeHash(body));
  });

  it("changes the hash when any hashed field changes", () => {
    const base = computeHash(body);
    const variants = [
      { ...body, seq: 2 },
      { ...body, ts: "2026-11-30T09:00:00.001Z" },
      { ...body, actorId: "op-2" },
      { ...body, action: "kill_switch.off" },
      { ...body, targetId: "mode:url" },
      { ...body, detail: { ...body.detail, z: 2 } },
      { ...body, prevHash: "1".repeat(64) },
    ];
    for (const v of variants) expect(computeHash(v)).not.toBe(base);
  });

  it("writes export lines as the hashed body plus the hash", () => {
    const hash = computeHash(body);
    const line = JSON.parse(entryLine({ ...body, hash }));
    expect(line.hash).toBe(hash);
    expect(line.v).toBe(1);
    expect(Object.keys(line)).toHaveLength(11);
  });
});

describe("fixed-shape serialiser", () => {
  // Generated entries with awkward strings (quotes, backslashes, control characters, non-ASCII,
  // astral symbols, lone surrogates) must serialise byte for byte as the general JCS library does.
  const awkward = [
    "",
    'a"b',
    "back\\slash",
    "tab\there",
    "nl\nx",
    "\u0001\u001f",
    "é ü ß",
    "Україна",
    "😀",
    "\ud800",
    "</script>",
    "€\u2028\u2029",
  ];
  let n = 0;
  const pick = () => awkward[n++ % awkward.length]!;
  it.each(Array.from({ length: 40 }, (_, i) => i))("matches the JCS library on generated entry %i", async (i) => {
    const { canonicalize } = await import("@/lib/audit/canonical");
    const entry = {
      seq: 1 + i * 7919,
      ts: new Date(1_790_000_000_000 + i * 1000).toISOString(),
      actorType: "system" as const,
      actorId: pick(),
      action: "record.revoked",
      targetType: pick(),
      targetId: pick(),
      detail: { [pick() || "k"]: pick(), n: i, list: [pick(), pick()], none: null, flag: i % 2 === 0 },
      prevHash: GENESIS_HASH,
    };
    const outcome = (f: () => string) => {
      try {
        return f();
      } catch (err) {
        return `refused: ${(err as Error).message}`;
      }
    };
    const hash = "ab".repeat(32);
    expect(outcome(() => hashedBody(entry))).toBe(outcome(() => canonicalize({ ...entry, v: 1 })));
    expect(outcome(() => entryLine({ ...entry, hash }))).toBe(outcome(() => canonicalize({ ...entry, hash, v: 1 })));
  });
});

// Property-based: the writer's fast path against the independent library (RFC 8785), on entries
// built from every edge the RFC names: lone surrogates (refused by both), U+2028/U+2029, control
// characters, astral-plane characters, quotes and backslashes, keys that sort differently by
// UTF-16 code units than by code points, and numbers (integers, fractions, exponents, -0).
const awkwardChar = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\u2028",
      "\u2029",
      '"',
      "\\",
      "/",
      "\u007f",
      "\u00e9",
      "\ufeff",
      "\uffff",
      "\ue000",
      "\u{1F600}",
      "\u{10FFFF}",
      "\u{1D11E}",
    ),
  },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xd7ff }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
);
const plain = fc.array(awkwardChar, { maxLength: 12 }).map((a) => a.join(""));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
// A lone surrogate in one string of twenty, so most entries are valid and some are refused.
const text = fc.oneof(
  { weight: 19, arbitrary: plain },
  { weight: 1, arbitrary: fc.tuple(plain, loneSurrogate, plain).map((p) => p.join("")) },
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, 123456789012345680000, 0.1 + 0.2, -1.5e300),
);
const detailValue = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 4 }));
const entryArb = fc.record({
  seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  ts: fc
    .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  actorType: fc.constantFrom(...actorType.enumValues),
  actorId: text,
  action: text,
  targetType: text,
  targetId: text,
  detail: fc.dictionary(text, detailValue, { maxKeys: 6 }),
  prevHash: fc.oneof(fc.constant(GENESIS_HASH), fc.stringMatching(/^[0-9a-f]{64}$/)),
});

function outcome(f: () => string | undefined): string {
  try {
    const out = f();
    return out === undefined ? "refused: undefined" : out;
  } catch {
    return "refused";
  }
}

describe("fast path against the canonicalize library (property-based)", () => {
  it("serialises every generated entry exactly as the library does, or both refuse it", () => {
    fc.assert(
      fc.property(entryArb, fc.stringMatching(/^[0-9a-f]{64}$/), (entry, hash) => {
        expect(outcome(() => hashedBody(entry))).toBe(outcome(() => canonicalizeLibrary({ ...entry, v: 1 })));
        expect(outcome(() => entryLine({ ...entry, hash }))).toBe(outcome(() => canonicalizeLibrary({ ...entry, hash, v: 1 })));
        // The exporter's shortcut: the hashed body with the hash inserted is the same line.
        expect(outcome(() => lineFromBody(hashedBody(entry), hash))).toBe(outcome(() => canonicalizeLibrary({ ...entry, hash, v: 1 })));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses lone surrogates on both sides, wherever they are", () => {
    for (const lone of ["\ud800", "\udfff", "a\ud83d", "\ude00b"]) {
      const entry = {
        seq: 1,
        ts: "2026-11-30T09:00:00.000Z",
        actorType: "system" as const,
        actorId: lone,
        action: "a.b",
        targetType: "t",
        targetId: "x",
        detail: {},
        prevHash: GENESIS_HASH,
      };
      expect(outcome(() => hashedBody(entry))).toBe("refused");
      expect(outcome(() => canonicalizeLibrary({ ...entry, v: 1 }))).toMatch(/^refused/);
      expect(outcome(() => hashedBody({ ...entry, actorId: "a", detail: { [lone]: 1 } }))).toBe("refused");
    }
  });

  it("what the writer writes, the independent verifier accepts, and a changed byte it refuses", () => {
    fc.assert(
      fc.property(entryArb, (entry) => {
        let line: string;
        try {
          line = entryLine({ ...entry, hash: computeHash(entry) });
        } catch {
          return; // refused by the writer (lone surrogate): nothing to verify
        }
        expect(new ChainChecker().checkLine(line, 1)).toBeUndefined();
        const changed = line.replace(/"seq":(\d+)/, (_, n: string) => `"seq":${Number(n) === 1 ? 2 : Number(n) - 1}`);
        expect(new ChainChecker().checkLine(changed, 1)).toMatchObject({ ok: false });
      }),
      { numRuns: 1000 },
    );
  });

  it("knows every column of the audit log: a new field must be taught to the canonical form", () => {
    // The fast path itself fails to compile when AuditEntry gains a field it does not write.
    const columns = Object.keys(getTableColumns(auditLog)).sort();
    expect(columns).toEqual([...HASHED_FIELDS, "hash"].sort());
    const sample: AuditEntry = {
      seq: 1,
      ts: "2026-11-30T09:00:00.000Z",
      actorType: "system",
      actorId: "a",
      action: "a.b",
      targetType: "t",
      targetId: "x",
      detail: {},
      prevHash: GENESIS_HASH,
      hash: "0".repeat(64),
    };
    expect(Object.keys(sample).sort()).toEqual(columns);
    // And an unknown field smuggled in at run time is refused, not silently dropped from the hash.
    expect(() => hashedBody({ ...sample, tenant: "acme" } as unknown as AuditEntry)).toThrow(/fields the canonical form does not know/);
  });
});
