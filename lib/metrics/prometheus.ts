// Value-free aggregates in the Prometheus text format, for teams that chart in Grafana. Groups
// smaller than MIN_GROUP are folded into flow="other" so a count cannot single out a person.
import { sql, sum } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordRollup } from "@/db/schema";
import { auditHead } from "@/lib/audit/queries";
import { CLIENT_DISCONNECTED } from "@/lib/elicitation/wire";
import { activeKillSwitches } from "@/lib/policy/kill-switch";

export const MIN_GROUP = 5;

const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

// Store-wide counts of the three ways a pending record ends without an answer (issue 19): the
// person cancelled, the client went away, nobody answered in time; and records by revision.
async function storeEndings(db: Db) {
  const [endings, revisions] = await Promise.all([
    db
      .select({ state: recordRollup.state, reason: recordRollup.endReason, n: sql<string>`sum(${recordRollup.records})` })
      .from(recordRollup)
      .where(sql`${recordRollup.state} in ('cancelled', 'timed_out')`)
      .groupBy(recordRollup.state, recordRollup.endReason),
    db
      .select({ revision: recordRollup.protocolVersion, n: sql<string>`sum(${recordRollup.records})` })
      .from(recordRollup)
      .groupBy(recordRollup.protocolVersion),
  ]);
  const count = { person_cancelled: 0, client_disconnected: 0, timed_out: 0 };
  for (const e of endings) {
    const ending = e.state === "timed_out" ? "timed_out" : e.reason === CLIENT_DISCONNECTED ? "client_disconnected" : "person_cancelled";
    count[ending] += Number(e.n);
  }
  return { count, revisions: revisions.filter((r) => Number(r.n) !== 0) };
}

function endingLines({ count, revisions }: Awaited<ReturnType<typeof storeEndings>>): string[] {
  return [
    "# HELP elicitation_endings Records that ended without an answer, by why: the person cancelled, the client went away, nobody answered in time.",
    "# TYPE elicitation_endings gauge",
    ...Object.entries(count).map(([ending, n]) => `elicitation_endings{ending="${ending}"} ${n}`),
    "# HELP elicitation_records_by_revision Elicitation records by the MCP protocol revision that carried them.",
    "# TYPE elicitation_records_by_revision gauge",
    ...revisions.map((r) => `elicitation_records_by_revision{revision="${esc(r.revision || "unknown")}"} ${Number(r.n)}`),
  ];
}

export async function prometheusText(db: Db): Promise<string> {
  const [groups, [repeats], audit, switches, endings] = await Promise.all([
    // From the hourly rollup (kept by a trigger with every record write): no table scan per scrape.
    db
      .select({
        state: recordRollup.state,
        mode: recordRollup.mode,
        flow: recordRollup.flowId,
        n: sql<string>`sum(${recordRollup.records})`,
      })
      .from(recordRollup)
      .groupBy(recordRollup.state, recordRollup.mode, recordRollup.flowId),
    db.select({ n: sum(recordRollup.preventedRepeats) }).from(recordRollup),
    auditHead(db),
    activeKillSwitches(db),
    storeEndings(db),
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
    '# HELP elicitation_records Elicitation records by state, mode and flow (small groups folded into flow="other").',
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
    ...endingLines(endings),
  ];
  return lines.join("\n") + "\n";
}
