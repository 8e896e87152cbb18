// Method: M audit entries appended through the real chained writer; then (1) the evidence export
// as the console and `ctl audit export --tar` write it (streamed from a server-side cursor, every
// row re-hashed, written as tar parts, manifest signed) timed against PostgreSQL's own
// `COPY (select * from audit_log order by seq) TO STDOUT` of the same rows (PostgreSQL only);
// (2) offline verification of that .tar in one streamed pass, in entries per second; (3) the
// export's peak RSS growth sampled every 20 ms, at M and at M/4, to see that memory stays flat.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { auditLog } from "@/db/schema";
import type { Store } from "@/db/client";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { writeArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import { verifyArchive } from "@/lib/audit/verify-archive";
import { appendAuditStream } from "@/lib/audit/writer";
import { round, type BenchResult } from "./stats";

export async function seedAudit(store: Store, m: number): Promise<void> {
  for (let done = 0; done < m; done += 100_000) {
    const n = Math.min(100_000, m - done);
    await store.db.transaction((tx) =>
      appendAuditStream(tx, n, (i) => ({
        actorType: "system",
        actorId: "bench",
        action: AUDIT_ACTIONS.recordRevoked,
        targetType: "elicitation",
        targetId: `r${done + i}`,
        detail: { reason: "bench", n: done + i },
      })),
    );
  }
}

async function exportOnce(store: Store, dir: string, from?: Date) {
  const before = process.memoryUsage().rss;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - before)), 20);
  const t = performance.now();
  const file = path.join(dir, "evidence.tar");
  fs.rmSync(file, { force: true });
  const manifest = await writeArchive(
    { db: store.db, format: "ndjson", signer: loadSigner({ ...process.env, DATA_DIR: dir }), actor: { type: "system", id: "bench" }, from },
    file,
  );
  const ms = performance.now() - t;
  clearInterval(sampler);
  return { ms, count: manifest.count, peakMb: peak / 1024 / 1024 };
}

export async function evidence(store: Store, m: number): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-bench-export-"));
  // The newest quarter of the entries (by time), exported first, for the memory comparison.
  const [{ ts }] = (await store.db
    .select({ ts: auditLog.ts })
    .from(auditLog)
    .where(eq(auditLog.seq, Math.floor((m * 3) / 4)))
    .limit(1)) as [{ ts: Date }];
  const quarter = await exportOnce(store, fs.mkdtempSync(path.join(os.tmpdir(), "eg-bench-export-q-")), ts);
  const full = await exportOnce(store, dir);
  const results: BenchResult[] = [];
  if (store.sql) {
    const t = performance.now();
    let bytes = 0;
    // On a reserved connection of its own, released afterwards.
    const conn = await store.sql.reserve();
    try {
      const copy = await conn`copy (select * from audit_log order by seq) to stdout`.readable();
      for await (const chunk of copy) bytes += (chunk as Buffer).length;
    } finally {
      conn.release();
    }
    const copyMs = performance.now() - t;
    const ours = (full.count / full.ms) * 1000;
    const theirs = (full.count / copyMs) * 1000;
    results.push({
      name: `evidence export, ${full.count.toLocaleString("en-US")} entries`,
      metric: "throughput",
      unit: "entries/s",
      value: round(ours, 0),
      baseline: round(theirs, 0),
      baselineName: `COPY TO STDOUT (${Math.round(bytes / 1e6)} MB)`,
      ratio: round(ours / theirs),
      target: ">= 0.5x",
      holds: ours / theirs >= 0.5,
      note: "re-hashes and re-links every entry read from a server-side cursor, writes tar parts, and signs; COPY only streams stored bytes (docs/PERFORMANCE.md)",
    });
  } else {
    results.push({
      name: `evidence export, ${full.count.toLocaleString("en-US")} entries`,
      metric: "throughput",
      unit: "entries/s",
      value: round((full.count / full.ms) * 1000, 0),
      baseline: null,
      baselineName: null,
      ratio: null,
      target: ">= 0.5x COPY",
      holds: false,
      note: "COPY baseline needs PostgreSQL (DATABASE_URL); not measured on the embedded store",
    });
  }
  const t = performance.now();
  const report = await verifyArchive(fs.createReadStream(path.join(dir, "evidence.tar")), { maxBytes: Number.MAX_SAFE_INTEGER });
  const vMs = performance.now() - t;
  if (!report.ok) throw new Error(`bench export did not verify: ${report.problem}`);
  const rate = (report.count / vMs) * 1000;
  results.push({
    name: "offline verify",
    metric: "rate",
    unit: "entries/s",
    value: round(rate, 0),
    baseline: null,
    baselineName: null,
    ratio: null,
    target: ">= 300,000/s",
    holds: rate >= 300_000,
    note: "one streamed pass over the .tar: parses every line, re-serialises it with the canonicalize library (RFC 8785), re-hashes it, checks every link, the signed manifest and the detached signature",
  });
  results.push({
    name: "export memory",
    metric: "peak RSS growth",
    unit: "MB",
    value: round(full.peakMb, 1),
    baseline: round(quarter.peakMb, 1),
    baselineName: `same export of ${quarter.count.toLocaleString("en-US")} entries`,
    ratio: round(full.peakMb / Math.max(1, quarter.peakMb)),
    target: "flat (< 2x for 4x the entries)",
    holds: full.peakMb < 2 * Math.max(quarter.peakMb, 32),
  });
  return results;
}
