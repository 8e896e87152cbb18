// Small statistics helpers for the benchmarks: percentiles over raw samples (no smoothing).
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export interface BenchResult {
  name: string;
  metric: string;
  unit: string;
  value: number;
  baseline: number | null;
  baselineName: string | null;
  ratio: number | null;
  target: string;
  holds: boolean;
  note?: string;
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
