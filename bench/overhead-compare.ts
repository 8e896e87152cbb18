// The measuring loop both elicitation-overhead benchmarks (2025-11-25 and 2026-07-28) share: warm
// both servers up, then alternate rounds of calls against ours and the bare SDK server (and, when
// given, the single-row commits of the physical floor) so drift on a busy machine hits all alike,
// and report p50, p99 and throughput against the same-run baseline, and p50 against the floor.
import { DURABLE_WRITES_PER_CALL } from "./commit-floor";
import { percentile, round, type BenchResult } from "./stats";

export interface Measured {
  oursT: number[];
  bareT: number[];
  /** Single-row commit latencies measured in the same rounds (empty without a probe). */
  commitT: number[];
  oursMs: number;
  bareMs: number;
  calls: number;
}

export async function alternate<C>(
  ours: C,
  bare: C,
  timeCalls: (client: C, n: number) => Promise<number[]>,
  opts: { calls: number; rounds: number; commits?: (n: number) => Promise<number[]> },
): Promise<Measured> {
  await timeCalls(ours, 20);
  await timeCalls(bare, 20);
  await opts.commits?.(20);
  const m: Measured = { oursT: [], bareT: [], commitT: [], oursMs: 0, bareMs: 0, calls: opts.calls * opts.rounds };
  for (let r = 0; r < opts.rounds; r++) {
    let t = performance.now();
    m.oursT.push(...(await timeCalls(ours, opts.calls)));
    m.oursMs += performance.now() - t;
    t = performance.now();
    m.bareT.push(...(await timeCalls(bare, opts.calls)));
    m.bareMs += performance.now() - t;
    if (opts.commits) m.commitT.push(...(await opts.commits(opts.calls)));
  }
  return m;
}

export function overheadRows(base: { name: string; baselineName: string; note: string }, m: Measured): BenchResult[] {
  const p50 = [percentile(m.oursT, 50), percentile(m.bareT, 50)] as const;
  const p99 = [percentile(m.oursT, 99), percentile(m.bareT, 99)] as const;
  const tput = [(m.calls / m.oursMs) * 1000, (m.calls / m.bareMs) * 1000] as const;
  const rows: BenchResult[] = [
    {
      ...base,
      metric: "p50 latency",
      unit: "ms",
      value: round(p50[0]),
      baseline: round(p50[1]),
      ratio: round(p50[0] / p50[1]),
      target: "<= 1.2x",
      holds: p50[0] / p50[1] <= 1.2,
    },
    {
      ...base,
      metric: "p99 latency",
      unit: "ms",
      value: round(p99[0]),
      baseline: round(p99[1]),
      ratio: round(p99[0] / p99[1]),
      target: "<= 1.5x",
      holds: p99[0] / p99[1] <= 1.5,
    },
    {
      ...base,
      metric: "throughput",
      unit: "calls/s",
      value: round(tput[0], 1),
      baseline: round(tput[1], 1),
      ratio: round(tput[0] / tput[1]),
      target: ">= 0.8x",
      holds: tput[0] / tput[1] >= 0.8,
    },
  ];
  if (m.commitT.length > 0) {
    const commit = percentile(m.commitT, 50);
    const floor = p50[1] + DURABLE_WRITES_PER_CALL * commit;
    rows.push({
      ...base,
      metric: "p50 vs physical floor",
      unit: "ms",
      value: round(p50[0]),
      baseline: round(floor),
      baselineName: `floor: bare SDK p50 + ${DURABLE_WRITES_PER_CALL} x single-row commit p50 (${round(commit)} ms), same run`,
      ratio: round(p50[0] / floor),
      target: "<= floor + 1 ms",
      holds: p50[0] <= floor + 1,
    });
  }
  return rows;
}
