// The evidence archive as a stream (archive-format.ts): the console download and
// `ctl audit export --tar` write the same bytes. The first part leaves as soon as it is full; the
// manifest, its signature and the key follow once the export is recorded. If anything fails midway
// (a broken chain, the store, the audit write) the stream is destroyed: a download without its
// manifest is not evidence, and a file being written is removed.
import fs from "node:fs";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { z } from "zod";
import { PUBLIC_KEY_FILE, SIGNATURE_FILE } from "./archive-format";
import { gateEvidenceParts } from "./gate-evidence-parts";
import { exportEvidence, type EvidenceRequest, type EvidenceSink, type EvidenceTail } from "./export";
import { EXPORT_FORMATS, MANIFEST_FILE, type Manifest } from "./manifest";

/** What a download request may ask for: a format and an optional time range (date or date-time). */
export const exportRequest = z
  .object({
    format: z.enum(EXPORT_FORMATS).default("ndjson"),
    from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  })
  .transform((q) => ({ format: q.format, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined }));

export interface ArchiveStream {
  stream: Readable;
  startedAt: Date;
  /** Settles when the archive is complete (or failed; the stream is destroyed then). */
  done: Promise<Manifest>;
}

export function exportArchive(req: EvidenceRequest): ArchiveStream {
  const startedAt = new Date();
  const pack = tar.pack();
  const out = new PassThrough();
  pack.pipe(out);
  // A failure reaches the reader through `out`; the packer's own error event has nobody to tell.
  pack.on("error", () => {});
  const entry = (name: string, bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      // The callback fires once the reader took the bytes: back-pressure from the client.
      pack.entry({ name, size: bytes.length, mode: 0o644, mtime: startedAt, uname: "", gname: "" }, bytes, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  let tail: EvidenceTail | undefined;
  const sink: EvidenceSink = {
    part: entry,
    async publish(t) {
      tail = t;
    },
    async close() {
      await entry(MANIFEST_FILE, tail!.manifest);
      await entry(SIGNATURE_FILE, tail!.signature);
      await entry(PUBLIC_KEY_FILE, tail!.publicKeyPem);
      for (const part of await gateEvidenceParts(req.db, req)) await entry(part.name, part.bytes);
      pack.finalize();
    },
  };
  const done = exportEvidence(req, sink).catch((err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    pack.destroy(error);
    out.destroy(error);
    throw error;
  });
  // The caller observes failures on the stream; an unobserved rejection must not crash the process.
  done.catch(() => {});
  return { stream: out, startedAt, done };
}

/** Writes the archive to a file, under a `.partial` name renamed when complete. */
export async function writeArchive(req: EvidenceRequest, target: string): Promise<Manifest> {
  const archive = exportArchive(req);
  const partial = `${target}.partial`;
  const fd = fs.openSync(partial, "wx");
  try {
    await Promise.all([pipeline(archive.stream, fs.createWriteStream("", { fd })), archive.done]);
    fs.renameSync(partial, path.resolve(target));
    return await archive.done;
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}
