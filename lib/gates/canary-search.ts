// Where the privacy gate looks for its canaries after planting them: every table of the target's
// store, the audit log (its table, and a fresh signed export built by the product's own export),
// the deployment's log file (GATES_LOG_FILE, or --log-file), its metrics endpoint with the token
// the deployment itself checks, and its traces. Each place says how it was searched, or why it
// was not: a place the deployment does not have (metrics switched off, no trace exporter) is not
// applicable; a place it has that the gate cannot read "could not run" and fails the gate, so a
// run never passes on places it did not search. Console and ctl build the same target
// (target-from-settings.ts), so both search the same places.
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { exportArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import type { GateTarget } from "./target";
import type { CheckOutcome, CheckResult } from "./types";

export interface PlaceSearched {
  place: string;
  searched: boolean;
  /** Not searched because the deployment does not have this place at all (not a gap in the search). */
  absent?: boolean;
  /** How many hits (0 = clean); absent when not searched. */
  hits?: number;
  detail: string;
  ms?: number;
}

async function timed(body: () => Promise<PlaceSearched>): Promise<PlaceSearched> {
  const started = performance.now();
  const r = await body();
  return { ...r, ms: Math.round(performance.now() - started) };
}

async function searchStore(db: Db, marker: string): Promise<PlaceSearched> {
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(
      sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
    ),
  );
  const found: string[] = [];
  for (const { table_name } of tables) {
    // The whole row as text: every column, jsonb and arrays included.
    const [row] = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*) as n from ${sql.identifier(table_name)} t where strpos(t::text, ${marker}) > 0`),
    );
    if (Number(row?.n ?? 0) > 0) found.push(`${table_name} (${row!.n})`);
  }
  return {
    place: "store (every table, audit log included)",
    searched: true,
    hits: found.length,
    detail: found.length ? `found in ${found.join(", ")}` : `${tables.length} tables clean`,
  };
}

async function searchAuditLog(db: Db, marker: string): Promise<PlaceSearched> {
  const [row] = rowsOf<{ n: string | number; total: string | number }>(
    await db.execute(sql`select count(*) filter (where strpos(t::text, ${marker}) > 0) as n, count(*) as total from audit_log t`),
  );
  const hits = Number(row?.n ?? 0);
  return {
    place: "audit log (every entry, detail included)",
    searched: true,
    hits,
    detail: `${row?.total ?? 0} entries read${hits ? "" : ", clean"}`,
  };
}

async function searchMetrics(target: GateTarget, marker: string): Promise<PlaceSearched> {
  const place = "metrics endpoint";
  const res = await fetch(
    `${target.baseUrl}/api/metrics`,
    target.metricsToken ? { headers: { authorization: `Bearer ${target.metricsToken}` } } : {},
  );
  const text = await res.text();
  if (res.ok)
    return {
      place,
      searched: true,
      hits: text.split(marker).length - 1,
      detail: `${text.length} characters read from ${target.baseUrl}/api/metrics`,
    };
  // The deployment answers 404 when its metrics are switched off (no METRICS_TOKEN): nothing there to leak to.
  if (res.status === 404 && /metrics are disabled/.test(text))
    return {
      place,
      searched: false,
      absent: true,
      detail: "the deployment serves no metrics (METRICS_TOKEN unset there: /api/metrics answers 404)",
    };
  return {
    place,
    searched: false,
    detail: `not searched: /api/metrics answered HTTP ${res.status}${target.metricsToken ? " to the configured METRICS_TOKEN" : " and no METRICS_TOKEN is configured for the gate"}`,
  };
}

function searchLogFile(file: string | undefined, marker: string): PlaceSearched {
  if (!file)
    return {
      place: "logs",
      searched: false,
      detail: "not searched: the deployment's log file is not known (set GATES_LOG_FILE, or --log-file for ctl)",
    };
  if (!fs.existsSync(file)) return { place: `log file ${file}`, searched: false, detail: "not searched: the file does not exist" };
  const text = fs.readFileSync(file, "utf8");
  return { place: `log file ${file}`, searched: true, hits: text.split(marker).length - 1, detail: `${text.length} characters read` };
}

function searchTraces(target: GateTarget): PlaceSearched {
  if (!target.tracesExportedTo)
    return { place: "traces", searched: false, absent: true, detail: "the deployment exports no traces (no OTLP endpoint configured)" };
  return {
    place: "traces",
    searched: false,
    detail: `not searched: spans go to the OTLP collector at ${target.tracesExportedTo}, which the gate cannot read back; search the collector for the run's canary`,
  };
}

async function searchExport(db: Db, marker: string, actor: string): Promise<PlaceSearched> {
  const archive = exportArchive({ db, format: "ndjson", signer: loadSigner(), actor: { type: "operator", id: actor } });
  const chunks: Buffer[] = [];
  for await (const c of archive.stream) chunks.push(c as Buffer);
  const manifest = await archive.done;
  const hits = Buffer.concat(chunks).includes(marker) ? 1 : 0;
  return {
    place: "fresh evidence export (signed tar of the audit log)",
    searched: true,
    hits,
    detail: `${manifest.count} entries exported${hits ? "; canary found" : ", clean"}`,
  };
}

/**
 * A place's check outcome: a leak fails; a place the deployment has but the gate could not read
 * proves nothing and fails as "could not run" (never a silent pass); only a place the deployment
 * does not have is not applicable.
 */
export function placeOutcome(place: PlaceSearched): CheckOutcome {
  if (!place.searched) return place.absent ? "not_applicable" : "could_not_run";
  return place.hits ? "failed" : "passed";
}

export async function searchForCanary(target: GateTarget, marker: string, actor: string): Promise<PlaceSearched[]> {
  const out: PlaceSearched[] = [];
  if (target.db) {
    const db = target.db;
    out.push(await timed(() => searchStore(db, marker)));
    out.push(await timed(() => searchAuditLog(db, marker)));
    out.push(await timed(() => searchExport(db, marker, actor)));
  } else {
    out.push({
      place: "store (every table, audit log included)",
      searched: false,
      detail: "not searched: no DATABASE_URL for the target was given",
    });
    out.push({ place: "audit log", searched: false, detail: "not searched: the audit log is read from the target's store" });
    out.push({ place: "fresh evidence export", searched: false, detail: "not searched: building one needs the target's store" });
  }
  out.push(await timed(async () => searchLogFile(target.logFile, marker)));
  out.push(
    await timed(() =>
      searchMetrics(target, marker).catch((err: unknown) => ({
        place: "metrics endpoint",
        searched: false,
        detail: `not searched: ${(err as Error).message}`,
      })),
    ),
  );
  out.push(searchTraces(target));
  return out;
}

/** The privacy gate's checks for a planted canary: one per place searched, failing where it was found. */
export async function canarySearchChecks(target: GateTarget, marker: string, actor: string): Promise<CheckResult[]> {
  return (await searchForCanary(target, marker, actor)).map((place) => ({
    name: `search ${place.place}`,
    outcome: placeOutcome(place),
    detail: place.searched && place.hits ? `canary found ${place.hits} time(s): ${place.detail}` : place.detail,
    ms: place.ms ?? 0,
  }));
}
