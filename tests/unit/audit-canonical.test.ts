import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeHash, entryLine, GENESIS_HASH, hashedBody } from "@/lib/audit/canonical";

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
  const awkward = ["", "a\"b", "back\\slash", "tab\there", "nl\nx", "\u0001\u001f", "é ü ß", "Україна", "😀", "\ud800", "</script>", "€\u2028\u2029"];
  let n = 0;
  const pick = () => awkward[n++ % awkward.length]!;
  it.each(Array.from({ length: 40 }, (_, i) => i))("matches the JCS library on generated entry %i", async (i) => {
    const { canonicalize } = await import("@/lib/audit/canonical");
    const entry = { seq: 1 + i * 7919, ts: new Date(1_790_000_000_000 + i * 1000).toISOString(), actorType: "system" as const, actorId: pick(), action: "record.revoked", targetType: pick(), targetId: pick(), detail: { [pick() || "k"]: pick(), n: i, list: [pick(), pick()], none: null, flag: i % 2 === 0 }, prevHash: GENESIS_HASH };
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
