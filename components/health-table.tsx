import { ScrollRegion } from "./scroll-region";
import type { GroupHealth as HealthRow } from "@/lib/metrics/overview";

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");
const secs = (s: number | null) => (s === null ? "-" : s < 120 ? `${s}s` : `${Math.round(s / 60)}m`);

export function HealthTable({ rows, by }: { rows: HealthRow[]; by: string }) {
  return (
    <ScrollRegion label="Health by group">
      <table className="w-full text-left text-sm" data-testid="health-table">
        <caption className="sr-only">Outcome rates by {by}</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            {[by, "Records", "Completed", "Declined", "Cancelled by the person", "Client went away", "Validation failed", "Timed out (nobody answered)", "Prevented repeats", "Resume p50", "Resume p95"].map((h) => (
              <th key={h} scope="col" className="px-2 py-1">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.group} className="border-b border-slate-100 dark:border-slate-900">
              <td className="px-2 py-1 font-mono text-xs">{r.group}</td>
              <td className="px-2 py-1 tabular-nums">{r.total}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.completed, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.declined, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.cancelled, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.clientDisconnected, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.validationFailed, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(r.timedOut, r.total)}</td>
              <td className="px-2 py-1 tabular-nums">{r.preventedRepeats}</td>
              <td className="px-2 py-1 tabular-nums">{secs(r.resumeP50s)}</td>
              <td className="px-2 py-1 tabular-nums">{secs(r.resumeP95s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
