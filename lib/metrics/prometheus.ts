// Value-free aggregates in the Prometheus text format, for teams that chart in Grafana. Groups
// smaller than MIN_GROUP are folded into flow="other" so a count cannot single out a person.
import { sql, sum } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordRollup } from "@/db/schema";
import { auditHead } from "@/lib/audit/queries";
import { activeKillSwitches } from "@/lib/policy/kill-switch";

export const MIN_GROUP = 5;

const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

export async function prometheusText(db: Db): Promise<string> {
  const [groups, [repeats], audit, switches] = await Promise.all([
    // From the hourly rollup (kept by a trigger with every record write): no table scan per scrape.
    db
      .select({ state: recordRollup.state, mode: recordRollup.mode, flow: recordRollup.flowId, n: sql<string>`sum(${recordRollup.records})` })
      .from(recordRollup)
      .groupBy(recordRollup.state, recordRollup.mode, recordRollup.flowId),
    db.select({ n: sum(recordRollup.preventedRepeats) }).from(recordRollup),
    auditHead(db),
    activeKillSwitches(db),
  ]);
  const folded = new Map<string, number>();
  for (const g of groups) {
    const n = Number(g.n);
    if (n === 0) continue;
    const flow = n >= MIN_GROUP ? g.flow || "none" : "other";
    const key = `state="${g.state}",mode="${g.mode}",flow="${esc(flow)}"`;
    folded.set(key, (folded.get(key) ?? 0) + n);
  }
  const lines = [
    "# HELP elicitation_records Elicitation records by state, mode and flow (small groups folded into flow=\"other\").",
    "# TYPE elicitation_records gauge",
    ...[...folded.entries()].map(([labels, n]) => `elicitation_records{${labels}} ${n}`),
    "# HELP elicitation_prevented_repeats_total Calls answered from an earlier decline or cancel instead of prompting again.",
    "# TYPE elicitation_prevented_repeats_total counter",
    `elicitation_prevented_repeats_total ${Number(repeats?.n ?? 0)}`,
    "# HELP elicitation_kill_switches_engaged Kill switches in force.",
    "# TYPE elicitation_kill_switches_engaged gauge",
    `elicitation_kill_switches_engaged ${switches.length}`,
    "# HELP audit_log_entries Entries in the hash-chained audit log.",
    "# TYPE audit_log_entries counter",
    `audit_log_entries ${audit.entries}`,
  ];
  return lines.join("\n") + "\n";
}
