// Streams audit entries to an evidence directory: the data file (NDJSON or CSV) and a signed
// manifest. Memory stays flat: rows are read in keyset pages and written with back-pressure.
//
// Nothing partial is ever left looking complete: files are written under `.partial` names and
// renamed only after everything succeeded, manifest last. Every exported row is re-hashed on the
// way out, so a store whose chain was tampered with is refused rather than signed.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { stringify } from "csv-stringify/sync";
import { and, asc, desc, gt, gte, lt, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, type AuditRow } from "@/db/schema";
import { AUDIT_ACTIONS } from "./actions";
import { canonicalize, computeHash, entryLine, type AuditEntry } from "./canonical";
import { CSV_COLUMNS, DATA_FILE, MANIFEST_FILE, signedPayload, type ExportFormat, type Manifest } from "./manifest";
import type { Signer } from "./signing";
import { appendAudit } from "./writer";

const PAGE = 5000;

export class ExportError extends Error {
  override name = "ExportError";
}

export interface ExportOptions {
  db: Db;
  outDir: string;
  format: ExportFormat;
  from?: Date;
  to?: Date;
  signer: Signer;
  actor: { type: "operator" | "system"; id: string };
  force?: boolean;
}

export function rowToEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    ts: row.ts.toISOString(),
    actorType: row.actorType,
    actorId: row.actorId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    detail: row.detail as AuditEntry["detail"],
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

export function csvRecord(e: AuditEntry): string[] {
  return [String(e.seq), e.ts, e.actorType, e.actorId, e.action, e.targetType, e.targetId, entryDetail(e), e.prevHash, e.hash];
}

function entryDetail(e: AuditEntry): string {
  // The detail column carries the JCS form of the detail object, so the verifier re-hashes it as is.
  return canonicalize(e.detail);
}

async function write(stream: fs.WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, "drain");
}

export async function exportAudit(opts: ExportOptions): Promise<Manifest> {
  const { db, outDir, format, signer } = opts;
  prepareDir(outDir, opts.force ?? false);
  const dataName = DATA_FILE[format];
  const dataPartial = path.join(outDir, `${dataName}.partial`);
  const manifestPartial = path.join(outDir, `${MANIFEST_FILE}.partial`);
  let published = false;
  try {
    // The log is append-only, so everything up to the head read now is immutable: paging below it
    // is consistent without holding a long transaction.
    const [head] = await db.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    const headSeq = head?.seq ?? 0;
    const fileHash = createHash("sha256");
    const out = fs.createWriteStream(dataPartial, { flags: "wx" });
    const put = async (s: string) => {
      fileHash.update(s);
      await write(out, s);
    };
    if (format === "csv") await put(stringify([[...CSV_COLUMNS]]));
    let count = 0;
    let first: AuditEntry | undefined;
    let last: AuditEntry | undefined;
    let after = 0;
    for (;;) {
      const conds = [gt(auditLog.seq, after), lte(auditLog.seq, headSeq)];
      if (opts.from) conds.push(gte(auditLog.ts, opts.from));
      if (opts.to) conds.push(lt(auditLog.ts, opts.to));
      const rows = await db.select().from(auditLog).where(and(...conds)).orderBy(asc(auditLog.seq)).limit(PAGE);
      if (rows.length === 0) break;
      const entries = rows.map(rowToEntry);
      for (const e of entries) {
        const { hash, ...body } = e;
        if (computeHash(body) !== hash) throw new ExportError(`refusing to sign: stored audit entry ${e.seq} fails its hash`);
        if (last && (e.seq !== last.seq + 1 || e.prevHash !== last.hash)) {
          throw new ExportError(`refusing to sign: stored audit entry ${e.seq} does not link to ${last.seq}`);
        }
        first ??= e;
        last = e;
      }
      count += entries.length;
      const text = format === "csv" ? stringify(entries.map(csvRecord)) : entries.map((e) => entryLine(e) + "\n").join("");
      await put(text);
      after = rows[rows.length - 1]!.seq;
      if (rows.length < PAGE) break;
    }
    out.end();
    await once(out, "finish");
    const unsigned: Omit<Manifest, "signature"> = {
      kind: "elicitation-gateway.audit-export",
      version: 1,
      format,
      file: dataName,
      fileSha256: fileHash.digest("hex"),
      filter: { from: opts.from?.toISOString() ?? null, to: opts.to?.toISOString() ?? null },
      count,
      firstSeq: first?.seq ?? null,
      lastSeq: last?.seq ?? null,
      firstPrevHash: first?.prevHash ?? null,
      firstHash: first?.hash ?? null,
      lastHash: last?.hash ?? null,
      chainHead: { seq: headSeq, hash: head?.hash ?? null },
      exportedAt: new Date().toISOString(),
      exportedBy: `${opts.actor.type}:${opts.actor.id}`,
      hashAlgorithm: "sha256",
      canonicalization: "RFC8785-JCS",
      signer: { algorithm: "Ed25519", keyFingerprint: signer.keyFingerprint, publicKey: signer.publicKey },
    };
    const manifest: Manifest = { ...unsigned, signature: signer.sign(signedPayload(unsigned)) };
    const manifestText = JSON.stringify(manifest, null, 2) + "\n";
    fs.writeFileSync(manifestPartial, manifestText, { flag: "wx" });
    // Record the export before it becomes visible: if the audit write fails, no export appears.
    await db.transaction(async (tx) => {
      await appendAudit(tx, {
        actorType: opts.actor.type,
        actorId: opts.actor.id,
        action: AUDIT_ACTIONS.auditExported,
        targetType: "audit_log",
        targetId: `${manifest.firstSeq ?? 0}-${manifest.lastSeq ?? 0}`,
        detail: {
          format,
          count,
          from: manifest.filter.from,
          to: manifest.filter.to,
          manifest_sha256: createHash("sha256").update(manifestText).digest("hex"),
          key_fingerprint: signer.keyFingerprint,
        },
      });
      fs.renameSync(dataPartial, path.join(outDir, dataName));
      fs.renameSync(manifestPartial, path.join(outDir, MANIFEST_FILE));
      published = true;
    });
    return manifest;
  } catch (err) {
    fs.rmSync(dataPartial, { force: true });
    fs.rmSync(manifestPartial, { force: true });
    // The audit entry did not commit: withdraw the files so no unaudited export remains.
    if (published) {
      fs.rmSync(path.join(outDir, MANIFEST_FILE), { force: true });
      fs.rmSync(path.join(outDir, dataName), { force: true });
    }
    throw err;
  }
}

function prepareDir(outDir: string, force: boolean): void {
  try {
    fs.mkdirSync(outDir, { recursive: true });
    fs.accessSync(outDir, fs.constants.W_OK);
  } catch (err) {
    throw new ExportError(`cannot write to ${outDir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (!force && fs.existsSync(path.join(outDir, MANIFEST_FILE))) {
    throw new ExportError(`${outDir} already holds an export (manifest.json); choose another directory or pass --force`);
  }
  if (force) {
    for (const name of [MANIFEST_FILE, ...Object.values(DATA_FILE)]) fs.rmSync(path.join(outDir, name), { force: true });
  }
}
