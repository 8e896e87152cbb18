// Time-to-resume (responded_at - sent_at) is kept in the hourly rollup as a histogram. These are
// the buckets' lower bounds in seconds: bucket k covers [BOUNDS[k-1], BOUNDS[k]), bucket 0 starts
// at 0 and the last has no upper end. The SQL function record_resume_bucket (migration 0002) uses
// the same list; a test checks they agree.
export const RESUME_BUCKET_BOUNDS = [1, 2, 3, 5, 8, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600] as const;

function bucketRange(k: number): [number, number] {
  const lower = k === 0 ? 0 : RESUME_BUCKET_BOUNDS[k - 1]!;
  // The open-ended last bucket is treated as ending at twice its start: an estimate, stated as such.
  const upper = k < RESUME_BUCKET_BOUNDS.length ? RESUME_BUCKET_BOUNDS[k]! : lower * 2;
  return [lower, upper];
}

/**
 * The p-th percentile (0..1) estimated from bucket counts, interpolating linearly inside the bucket
 * that holds it. Exact to the bucket; within it, as good as a uniform spread.
 */
export function percentileFromHistogram(counts: ReadonlyMap<number, number>, p: number): number | null {
  // Bucket -1 (record_resume_bucket's "no response recorded": declined without an answer time,
  // still open, never sent) has no duration, so it never counts towards a percentile.
  const buckets = [...counts.entries()].filter(([k, n]) => k >= 0 && n > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const target = p * total;
  let seen = 0;
  for (const [k, n] of buckets) {
    if (seen + n >= target) {
      const [lower, upper] = bucketRange(k);
      return lower + ((upper - lower) * (target - seen)) / n;
    }
    seen += n;
  }
  return bucketRange(buckets.at(-1)![0])[1];
}
