// The evidence export: audit entries streamed from the store into a sink, in parts of whole lines
// (archive-format.ts), followed by the signed manifest, its detached signature and the public key.
// Two sinks: the tar archive (export-archive.ts: console download, `ctl audit export --tar`) and a
// directory (`ctl audit export --out`, below). Memory stays flat: one batch of rows and one part.
//
// Every exported row is re-hashed on the way out, so a store whose chain was tampered with is
// refused rather than signed. The export is audited before the manifest is released: a sink sees
// `publish` inside the audit transaction and `close` after it committed; without the manifest the
// data parts are not evidence.
import { createHash, createPublicKey } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { stringify } from "csv-stringify/sync";
import { desc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { AUDIT_ACTIONS } from "./actions";
import { partName, PART_BYTES, PUBLIC_KEY_FILE, SIGNATURE_FILE } from "./archive-format";
import { canonicalize, hashedBody, lineFromBody, type AuditEntry } from "./canonical";
import { auditEntryBatches } from "./export-rows";
import { CSV_COLUMNS, DATA_FILE, MANIFEST_FILE, signedPayload, type ExportFormat, type Manifest } from "./manifest";
import type { Signer } from "./signing";
import { appendAudit } from "./writer";

export { rowToEntry } from "./export-rows";

export class ExportError extends Error {
  override name = "ExportError";
}

export interface EvidenceRequest {
  db: Db;
  format: ExportFormat;
  from?: Date;
  to?: Date;
  signer: Signer;
  actor: { type: "operator" | "system"; id: string };
  /** Called after each batch with the last seq written and the head seq the export stops at (for a progress display). */
  onProgress?: (seq: number, headSeq: number) => void;
}

/** The archive's last three entries, exact bytes. */
export interface EvidenceTail {
  manifest: Buffer;
  signature: Buffer;
  publicKeyPem: Buffer;
}

export interface EvidenceSink {
  part(name: string, bytes: Buffer): Promise<void>;
  /** Called inside the transaction that records the export. */
  publish(tail: EvidenceTail): Promise<void>;
  /** Called once the export's audit entry committed. */
  close(): Promise<void>;
}

export function csvRecord(e: AuditEntry): string[] {
  // The detail column carries the JCS form of the detail object, so the verifier re-hashes it as is.
  return [String(e.seq), e.ts, e.actorType, e.actorId, e.action, e.targetType, e.targetId, canonicalize(e.detail), e.prevHash, e.hash];
}

export async function exportEvidence(req: EvidenceRequest, sink: EvidenceSink): Promise<Manifest> {
  const { db, format, signer } = req;
  const [head] = await db.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  const headSeq = head?.seq ?? 0;
  const fileHash = createHash("sha256");
  let pending = format === "csv" ? stringify([[...CSV_COLUMNS]]) : "";
  let parts = 0;
  const flush = async () => {
    const bytes = Buffer.from(pending, "utf8");
    pending = "";
    fileHash.update(bytes);
    await sink.part(partName(format, ++parts), bytes);
  };
  let count = 0;
  let first: AuditEntry | undefined;
  let last: AuditEntry | undefined;
  for await (const entries of auditEntryBatches(db, { headSeq, from: req.from, to: req.to })) {
    let lines = "";
    for (const e of entries) {
      const hash = e.hash;
      // Serialised once: hashed as is, and (with the hash inserted) written as the line. (The
      // canonical form takes its fields by name and leaves `hash` out: no copy of the row needed.)
      const body = hashedBody(e);
      if (createHash("sha256").update(body).digest("hex") !== hash)
        throw new ExportError(`refusing to sign: stored audit entry ${e.seq} fails its hash`);
      if (last && (e.seq !== last.seq + 1 || e.prevHash !== last.hash)) {
        throw new ExportError(`refusing to sign: stored audit entry ${e.seq} does not link to ${last.seq}`);
      }
      if (format === "ndjson") lines += lineFromBody(body, hash) + "\n";
      first ??= e;
      last = e;
    }
    count += entries.length;
    req.onProgress?.(last?.seq ?? 0, headSeq);
    pending += format === "csv" ? stringify(entries.map(csvRecord)) : lines;
    if (pending.length >= PART_BYTES) await flush();
  }
  // Always at least one part, even when empty: the archive then names its data file.
  if (pending.length > 0 || parts === 0) await flush();

  const unsigned: Omit<Manifest, "signature"> = {
    kind: "elicitation-gateway.audit-export",
    version: 1,
    format,
    file: DATA_FILE[format],
    fileSha256: fileHash.digest("hex"),
    filter: { from: req.from?.toISOString() ?? null, to: req.to?.toISOString() ?? null },
    count,
    firstSeq: first?.seq ?? null,
    lastSeq: last?.seq ?? null,
    firstPrevHash: first?.prevHash ?? null,
    firstHash: first?.hash ?? null,
    lastHash: last?.hash ?? null,
    chainHead: { seq: headSeq, hash: head?.hash ?? null },
    exportedAt: new Date().toISOString(),
    exportedBy: `${req.actor.type}:${req.actor.id}`,
    hashAlgorithm: "sha256",
    canonicalization: "RFC8785-JCS",
    signer: { algorithm: "Ed25519", keyFingerprint: signer.keyFingerprint, publicKey: signer.publicKey },
  };
  const manifest: Manifest = { ...unsigned, signature: signer.sign(signedPayload(unsigned)) };
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8");
  const tail: EvidenceTail = {
    manifest: manifestBytes,
    signature: Buffer.from(signer.sign(manifestBytes), "base64"),
    publicKeyPem: Buffer.from(
      createPublicKey({ key: Buffer.from(signer.publicKey, "base64"), format: "der", type: "spki" }).export({
        format: "pem",
        type: "spki",
      }),
    ),
  };
  await db.transaction(async (tx) => {
    await appendAudit(tx, {
      actorType: req.actor.type,
      actorId: req.actor.id,
      action: AUDIT_ACTIONS.auditExported,
      targetType: "audit_log",
      targetId: `${manifest.firstSeq ?? 0}-${manifest.lastSeq ?? 0}`,
      detail: {
        format,
        count,
        from: manifest.filter.from,
        to: manifest.filter.to,
        manifest_sha256: createHash("sha256").update(manifestBytes).digest("hex"),
        key_fingerprint: signer.keyFingerprint,
      },
    });
    await sink.publish(tail);
  });
  await sink.close();
  return manifest;
}

export interface ExportOptions extends EvidenceRequest {
  outDir: string;
  force?: boolean;
}

/**
 * `ctl audit export --out DIR`: the data file whole, the manifest, its signature and the key.
 * Nothing partial is ever left looking complete: files are written under `.partial` names and
 * renamed only once the export's audit entry is written (in its transaction), manifest last.
 */
export async function exportAudit(opts: ExportOptions): Promise<Manifest> {
  const { outDir, format } = opts;
  prepareDir(outDir, opts.force ?? false);
  const finals = [DATA_FILE[format], SIGNATURE_FILE, PUBLIC_KEY_FILE, MANIFEST_FILE];
  const partial = (name: string) => path.join(outDir, `${name}.partial`);
  let published = false;
  // Opened synchronously, so a failure's clean-up never races the file's creation.
  const out = fs.createWriteStream("", { fd: fs.openSync(partial(DATA_FILE[format]), "wx") });
  const sink: EvidenceSink = {
    async part(_name, bytes) {
      if (!out.write(bytes)) await once(out, "drain");
    },
    async publish(tail) {
      out.end();
      await once(out, "finish");
      fs.writeFileSync(partial(SIGNATURE_FILE), tail.signature, { flag: "wx" });
      fs.writeFileSync(partial(PUBLIC_KEY_FILE), tail.publicKeyPem, { flag: "wx" });
      fs.writeFileSync(partial(MANIFEST_FILE), tail.manifest, { flag: "wx" });
      published = true;
      for (const name of finals) fs.renameSync(partial(name), path.join(outDir, name));
    },
    async close() {},
  };
  try {
    return await exportEvidence(opts, sink);
  } catch (err) {
    out.destroy();
    // The audit entry did not commit (or the export failed): withdraw every file it wrote.
    for (const name of finals) {
      fs.rmSync(partial(name), { force: true });
      if (published) fs.rmSync(path.join(outDir, name), { force: true });
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
    for (const name of [MANIFEST_FILE, SIGNATURE_FILE, PUBLIC_KEY_FILE, ...Object.values(DATA_FILE)])
      fs.rmSync(path.join(outDir, name), { force: true });
  }
}
