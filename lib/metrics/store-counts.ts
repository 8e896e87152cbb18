// Value-free counts for the home page: how many records sit in each state, how many sessions and
// flows exist, and where the audit chain stands. Aggregates only; never a row's content.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationState, flows, mcpSessions, recordRollup } from "@/db/schema";
import { auditHead } from "@/lib/audit/queries";

export type RecordState = (typeof elicitationState.enumValues)[number];

export interface StoreCounts {
  recordsByState: Record<RecordState, number>;
  records: number;
  sessions: number;
  flows: number;
  audit: { entries: number; headHash: string | null; lastAt: Date | null };
}

export async function storeCounts(db: Db): Promise<StoreCounts> {
  const [byState, [sessions], [flowCount], audit] = await Promise.all([
    // From the hourly rollup (a trigger keeps it with every record write): no scan of the records.
    db
      .select({ state: recordRollup.state, n: sql<string>`sum(${recordRollup.records})` })
      .from(recordRollup)
      .groupBy(recordRollup.state),
    db.select({ n: sql<number>`count(*)::int` }).from(mcpSessions),
    db.select({ n: sql<number>`count(*)::int` }).from(flows),
    auditHead(db),
  ]);
  const recordsByState = Object.fromEntries(elicitationState.enumValues.map((s) => [s, 0])) as Record<RecordState, number>;
  for (const row of byState) recordsByState[row.state] = Number(row.n);
  return {
    recordsByState,
    records: Object.values(recordsByState).reduce((a, b) => a + b, 0),
    sessions: Number(sessions?.n ?? 0),
    flows: Number(flowCount?.n ?? 0),
    audit: { entries: audit.entries, headHash: audit.headHash, lastAt: audit.lastAt },
  };
}
