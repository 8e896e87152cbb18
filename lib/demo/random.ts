// A small seeded PRNG (mulberry32) so demo data and test fixtures are reproducible run to run.
export type Rng = () => number;

export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Picks by weight: [[value, weight], ...]. */
export function weighted<T>(rng: Rng, table: ReadonlyArray<readonly [T, number]>): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [value, w] of table) {
    r -= w;
    if (r < 0) return value;
  }
  const last = table[table.length - 1];
  if (!last) throw new Error("weighted pick from an empty table");
  return last[0];
}

export function hexId(rng: Rng, bytes = 16): string {
  let s = "";
  for (let i = 0; i < bytes; i++)
    s += Math.floor(rng() * 256)
      .toString(16)
      .padStart(2, "0");
  return s;
}
