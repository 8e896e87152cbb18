// What clients said about themselves in a flow: the clientInfo names and versions and the modes
// their elicitations used, read from the hourly rollup. Observations only: they are shown on the
// flow page, never used to select a flow or to build its fingerprint, so announcing a new version
// resets nothing. "New since the last gate run" tells a releaser the evidence predates them.
import { inArray, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { gateRuns, recordRollup } from "@/db/schema";

export interface FlowObservation {
  clientName: string;
  clientVersion: string;
  modes: string[];
  records: number;
  firstSeen: Date;
  lastSeen: Date;
  /** First seen in or after the hour of the flow's last gate run (false when no gate ever ran). */
  newSinceLastGate: boolean;
}

// Self-declared strings can be anything: keep what is shown bounded.
const SHOWN = 80;
const PER_FLOW = 20;
const clip = (s: string) => (s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s);

export async function flowObservations(db: DbOrTx, flowIds: readonly string[]): Promise<Map<string, FlowObservation[]>> {
  const out = new Map<string, FlowObservation[]>();
  if (flowIds.length === 0) return out;
  const ids = [...flowIds];
  const [rows, gates] = await Promise.all([
    db.execute(sql`
      select ${recordRollup.flowId} as flow_id, ${recordRollup.clientName} as client_name, ${recordRollup.clientVersion} as client_version,
             array_agg(distinct ${recordRollup.mode}::text order by ${recordRollup.mode}::text) as modes,
             sum(${recordRollup.records})::bigint as records, min(${recordRollup.hour}) as first_seen, max(${recordRollup.hour}) as last_seen
      from ${recordRollup}
      where ${inArray(recordRollup.flowId, ids)} and ${recordRollup.records} > 0
      group by 1, 2, 3
      order by 1, 5 desc`),
    db
      .select({ flowId: gateRuns.flowId, last: sql<Date | string>`max(${gateRuns.ranAt})` })
      .from(gateRuns)
      .where(inArray(gateRuns.flowId, ids))
      .groupBy(gateRuns.flowId),
  ]);
  const lastGate = new Map(gates.map((g) => [g.flowId, new Date(g.last)]));
  for (const r of rowsOf<{
    flow_id: string;
    client_name: string;
    client_version: string;
    modes: string[];
    records: string | number;
    first_seen: Date | string;
    last_seen: Date | string;
  }>(rows)) {
    const list = out.get(r.flow_id) ?? [];
    if (list.length >= PER_FLOW) continue;
    const firstSeen = new Date(r.first_seen);
    const gate = lastGate.get(r.flow_id);
    const gateHour = gate ? Math.floor(gate.getTime() / 3_600_000) * 3_600_000 : undefined;
    list.push({
      clientName: clip(r.client_name),
      clientVersion: clip(r.client_version),
      modes: r.modes,
      records: Number(r.records),
      firstSeen,
      lastSeen: new Date(r.last_seen),
      newSinceLastGate: gateHour !== undefined && firstSeen.getTime() >= gateHour,
    });
    out.set(r.flow_id, list);
  }
  return out;
}
