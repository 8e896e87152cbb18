// The console's evidence download: the same export as `ctl audit export` (streamed to a temporary
// directory, re-hashed, signed, itself audited), packed as a tar of manifest.json and the data
// file and streamed to the browser. Memory stays flat; the temporary files go when the stream ends.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { z } from "zod";
import type { Db } from "@/db/client";
import { exportAudit } from "./export";
import { EXPORT_FORMATS, MANIFEST_FILE, type ExportFormat, type Manifest } from "./manifest";
import { loadSigner } from "./signing";
import { verifyExport, type VerifyReport } from "./verify-export";

/** What a download request may ask for: a format and an optional time range (date or date-time). */
export const exportRequest = z
  .object({
    format: z.enum(EXPORT_FORMATS).default("ndjson"),
    from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  })
  .transform((q) => ({ format: q.format, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined }));

export async function exportArchive(db: Db, opts: { format: ExportFormat; from?: Date; to?: Date; operator: string }): Promise<{ manifest: Manifest; stream: Readable }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-evidence-"));
  try {
    const manifest = await exportAudit({ db, outDir: dir, format: opts.format, from: opts.from, to: opts.to, signer: loadSigner(), actor: { type: "operator", id: opts.operator } });
    const pack = tar.pack();
    const out = new PassThrough();
    void (async () => {
      try {
        for (const name of [MANIFEST_FILE, manifest.file]) {
          const file = path.join(dir, name);
          const entry = pack.entry({ name, size: fs.statSync(file).size, mode: 0o644, mtime: new Date(manifest.exportedAt) });
          await pipeline(fs.createReadStream(file), entry);
        }
        pack.finalize();
      } catch (err) {
        pack.destroy(err as Error);
      }
    })();
    pack.pipe(out);
    const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
    out.once("close", cleanup);
    out.once("end", cleanup);
    return { manifest, stream: out };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Verifies an export uploaded as its two files, in a temporary directory, offline. */
export async function verifyUploaded(files: { manifest: Buffer; data: Buffer; dataName: string }): Promise<VerifyReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-verify-"));
  try {
    fs.writeFileSync(path.join(dir, MANIFEST_FILE), files.manifest);
    // The manifest names its data file; the upload is stored under the names the manifest expects.
    let expected = files.dataName;
    try {
      expected = path.basename(String(JSON.parse(files.manifest.toString("utf8")).file ?? files.dataName));
    } catch {
      // a malformed manifest is reported by verifyExport
    }
    fs.writeFileSync(path.join(dir, expected), files.data);
    return await verifyExport(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
