// Where the privacy gate looks for its canaries after planting them: every table of the target's
// store (the audit log among them), the target's log file, its metrics endpoint and a fresh signed
// evidence export built from that store. A place that cannot be reached is reported as not
// searched, with the reason; it is never counted as clean.
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { exportArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import type { GateTarget } from "./target";

export interface PlaceSearched {
  place: string;
  searched: boolean;
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
  const tables = rowsOf<{ table_name: string }>(await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`));
  const found: string[] = [];
  for (const { table_name } of tables) {
    // The whole row as text: every column, jsonb and arrays included.
    const [row] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from ${sql.identifier(table_name)} t where strpos(t::text, ${marker}) > 0`));
    if (Number(row?.n ?? 0) > 0) found.push(`${table_name} (${row!.n})`);
  }
  return { place: "store (every table, audit log included)", searched: true, hits: found.length, detail: found.length ? `found in ${found.join(", ")}` : `${tables.length} tables clean` };
}

async function searchExport(db: Db, marker: string, actor: string): Promise<PlaceSearched> {
  const archive = exportArchive({ db, format: "ndjson", signer: loadSigner(), actor: { type: "operator", id: actor } });
  const chunks: Buffer[] = [];
  for await (const c of archive.stream) chunks.push(c as Buffer);
  const manifest = await archive.done;
  const hits = Buffer.concat(chunks).includes(marker) ? 1 : 0;
  return { place: "fresh evidence export (signed tar of the audit log)", searched: true, hits, detail: `${manifest.count} entries exported${hits ? "; canary found" : ", clean"}` };
}

export async function searchForCanary(target: GateTarget, marker: string, actor: string): Promise<PlaceSearched[]> {
  const out: PlaceSearched[] = [];
  if (target.db) {
    const db = target.db;
    out.push(await timed(() => searchStore(db, marker)));
    out.push(await timed(() => searchExport(db, marker, actor)));
  } else {
    out.push({ place: "store (every table, audit log included)", searched: false, detail: "not searched: no DATABASE_URL for the target was given" });
    out.push({ place: "fresh evidence export", searched: false, detail: "not searched: building one needs the target's store" });
  }
  if (target.logFile) {
    const text = fs.existsSync(target.logFile) ? fs.readFileSync(target.logFile, "utf8") : null;
    out.push(text === null ? { place: `log file ${target.logFile}`, searched: false, detail: "not searched: the file does not exist" } : { place: `log file ${target.logFile}`, searched: true, hits: text.split(marker).length - 1, detail: `${text.length} characters read` });
  } else {
    out.push({ place: "logs", searched: false, detail: "not searched: no log file for the target was given (--log-file)" });
  }
  if (target.metricsToken) {
    const res = await fetch(`${target.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${target.metricsToken}` } });
    const text = await res.text();
    out.push(res.ok ? { place: "metrics endpoint", searched: true, hits: text.split(marker).length - 1, detail: `${text.length} characters read` } : { place: "metrics endpoint", searched: false, detail: `not searched: HTTP ${res.status}` });
  } else {
    out.push({ place: "metrics endpoint", searched: false, detail: "not searched: no METRICS_TOKEN for the target was given" });
  }
  out.push({ place: "traces", searched: false, detail: "nothing to search: this product exports no traces" });
  return out;
}
