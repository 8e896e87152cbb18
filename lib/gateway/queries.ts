// What the upstreams page reads: each upstream's elicitations by outcome (from the store, so every
// instance shows the same numbers) and its health from a fresh-enough contact.
import { isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { elicitationRecords, type Upstream } from "@/db/schema";
import { toolsOfUpstream } from "./upstream-era";
import { healthOf, type Health } from "./upstream-health";

export async function upstreamOutcomes(db: DbOrTx): Promise<Map<string, Record<string, number>>> {
  const rows = await db
    .select({ upstreamId: elicitationRecords.upstreamId, state: elicitationRecords.state, n: sql<number>`count(*)::int` })
    .from(elicitationRecords)
    .where(isNotNull(elicitationRecords.upstreamId))
    .groupBy(elicitationRecords.upstreamId, elicitationRecords.state);
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const m = out.get(r.upstreamId!) ?? {};
    m[r.state] = r.n;
    out.set(r.upstreamId!, m);
  }
  return out;
}

/** Contacts each upstream (its tool list, cached briefly) and returns what that contact found. */
export async function probeUpstreams(rows: readonly Upstream[]): Promise<Map<string, Health>> {
  await Promise.all(rows.map((r) => toolsOfUpstream(r).catch(() => undefined)));
  return new Map(rows.map((r) => [r.id, healthOf(r.id)]));
}
