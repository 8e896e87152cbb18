// Verifies an evidence archive (.tar, archive-format.ts) as it streams in: from a request body, a
// file or stdin. Nothing is written anywhere, no name from the archive is ever used as a path, and
// the byte cap holds on the bytes actually read, whatever the sender declared.
//
// Two outcomes besides a report: EvidenceFormatError (this is not an evidence archive: refuse the
// upload, 400) and EvidenceTooLargeError (over the cap, 413). A report with ok:false means it is an
// archive, and the evidence in it does not hold (tampered, truncated data, wrong key).
import tar, { type Header } from "tar-stream";
import { parsePartName, PUBLIC_KEY_FILE, SIGNATURE_FILE, TAIL_FILES } from "./archive-format";
import { compareWithManifest } from "./chain-checker";
import { checkGateEvidenceEntry, GATE_EVIDENCE_ENTRY, MAX_GATE_EVIDENCE_BYTES } from "./gate-evidence-parts";
import { verifySignature } from "./signing";
import { dataVerifier, type DataVerifier } from "./data-verifier";
import { checkDetached, checkManifest, MAX_MANIFEST_BYTES } from "./manifest-check";
import { DATA_FILE, MANIFEST_FILE, type ExportFormat } from "./manifest";
import { okReport, type VerifyOptions, type VerifyReport } from "./verify-export";

export class EvidenceFormatError extends Error {
  override name = "EvidenceFormatError";
}

export class EvidenceTooLargeError extends Error {
  override name = "EvidenceTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`the archive is larger than the limit of ${maxBytes} bytes`);
  }
}

export interface ArchiveVerifyOptions extends VerifyOptions {
  /** Hard cap on the bytes read from the input. */
  maxBytes: number;
  /**
   * For request bodies: when verification stops early, read and drop (never keep) up to maxBytes
   * more before returning, so that the client, still sending, can finish and read the answer
   * (413, 400): a server that answers mid-body closes the connection, and the client's next write
   * meets a reset that can swallow the answer. Past that the input is cancelled.
   */
  discardRest?: boolean;
}

const MAX_SMALL_ENTRY = 4096; // signature and public key

type Extract = ReturnType<typeof tar.extract>;
type TarEntry = AsyncIterable<Buffer> & { header: Header; resume(): void };

/** Feeds the input into the extractor with back-pressure, counting bytes; stops at the cap. */
async function feed(
  input: AsyncIterable<Uint8Array>,
  extract: Extract,
  options: ArchiveVerifyOptions,
  stopped: () => boolean,
): Promise<void> {
  const chunks = input[Symbol.asyncIterator]();
  let bytes = 0;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) {
        if (!stopped()) extract.end(() => {});
        return;
      }
      if (stopped()) break;
      const chunk = next.value;
      bytes += chunk.byteLength;
      if (bytes > options.maxBytes) {
        extract.destroy(new EvidenceTooLargeError(options.maxBytes));
        break;
      }
      if (!extract.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
        await new Promise<void>((resolve) => {
          const done = () => {
            extract.off("drain", done);
            extract.off("close", done);
            resolve();
          };
          extract.on("drain", done);
          extract.on("close", done);
        });
      }
    }
  } catch (err) {
    extract.destroy(err instanceof Error ? err : new Error(String(err)));
    return;
  }
  if (options.discardRest) await discard(chunks, options.maxBytes);
  else await chunks.return?.();
}

async function discard(chunks: AsyncIterator<Uint8Array>, limit: number): Promise<void> {
  let dropped = 0;
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      dropped += next.value.byteLength;
      if (dropped > limit) break;
    }
    await chunks.return?.();
  } catch {
    // the client went away: nothing left to discard
  }
}

async function readSmall(entry: TarEntry, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += chunk.length;
    if (size > limit) throw new EvidenceFormatError(`${what} is larger than it can be`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function verifyArchive(input: AsyncIterable<Uint8Array>, options: ArchiveVerifyOptions): Promise<VerifyReport> {
  const extract = tar.extract();
  let stop = false;
  const feeding = feed(input, extract, options, () => stop);
  try {
    return await readArchive(extract as unknown as AsyncIterable<TarEntry>, options);
  } catch (err) {
    if (err instanceof EvidenceTooLargeError || err instanceof EvidenceFormatError) throw err;
    // tar-stream's own errors: a header that is not tar, or the input ended inside an entry.
    const message = err instanceof Error ? err.message : "";
    if (/end of data/i.test(message)) throw new EvidenceFormatError("the archive is truncated");
    if (/header/i.test(message)) throw new EvidenceFormatError("not a tar archive");
    throw err;
  } finally {
    stop = true;
    extract.destroy();
    await feeding;
  }
}

async function readArchive(entries: AsyncIterable<TarEntry>, options: ArchiveVerifyOptions): Promise<VerifyReport> {
  let format: ExportFormat | undefined;
  let parts = 0;
  let data: DataVerifier | undefined;
  const tail = new Map<string, Buffer>();
  const gateEntries: Array<{ name: string; bytes: Buffer }> = [];
  for await (const entry of entries) {
    const { name, type } = entry.header;
    // Only regular files with the exact names the exporter writes; no links, directories, paths.
    if (type !== "file") throw new EvidenceFormatError("the archive holds an entry that is not a regular file");
    const part = parsePartName(name);
    if (part) {
      if (tail.size > 0) throw new EvidenceFormatError("a data part follows the manifest");
      if (format !== undefined && part.format !== format) throw new EvidenceFormatError("the archive mixes data formats");
      if (part.index !== parts + 1) throw new EvidenceFormatError(`data part ${parts + 1} is missing, duplicated or out of order`);
      format = part.format;
      data ??= dataVerifier(format);
      parts++;
      for await (const chunk of entry) {
        const failure = data.write(chunk);
        if (failure) return { ...failure, count: data.checker.count };
      }
      continue;
    }
    // Gate evidence (signed by the same key) may follow the key file; checked after the manifest.
    if (tail.size === TAIL_FILES.length && GATE_EVIDENCE_ENTRY.test(name)) {
      gateEntries.push({ name, bytes: await readSmall(entry, MAX_GATE_EVIDENCE_BYTES, name) });
      continue;
    }
    const expected = TAIL_FILES[tail.size];
    if (!TAIL_FILES.includes(name as (typeof TAIL_FILES)[number]))
      throw new EvidenceFormatError("the archive holds an entry with an unexpected name");
    if (name !== expected)
      throw new EvidenceFormatError(
        parts === 0 ? "the archive holds no data parts" : "the manifest, signature and key are missing, duplicated or out of order",
      );
    tail.set(name, await readSmall(entry, name === MANIFEST_FILE ? MAX_MANIFEST_BYTES : MAX_SMALL_ENTRY, name));
  }
  if (!data || !format) throw new EvidenceFormatError("the archive holds no data parts");
  const manifestBytes = tail.get(MANIFEST_FILE);
  const signature = tail.get(SIGNATURE_FILE);
  const publicKey = tail.get(PUBLIC_KEY_FILE);
  if (!manifestBytes || !signature || !publicKey)
    throw new EvidenceFormatError("the archive is truncated (manifest, signature or key missing)");

  const end = data.end();
  if (end) return { ...end, count: data.checker.count };
  const checked = checkManifest(manifestBytes, options, DATA_FILE[format]);
  if (!checked.ok) {
    if (checked.malformed) throw new EvidenceFormatError(checked.problem);
    return { ok: false, problem: checked.problem, count: data.checker.count };
  }
  const detached = checkDetached(checked, manifestBytes, signature, publicKey);
  if (detached) return { ok: false, problem: detached, count: data.checker.count };
  for (const g of gateEntries) {
    const problem = checkGateEvidenceEntry(g.name, g.bytes, (payload, sig) => verifySignature(checked.key, payload, sig));
    if (problem) return { ok: false, problem, count: data.checker.count };
  }
  const problem = compareWithManifest(data.checker.result(), checked.manifest, data.fileSha256());
  if (problem) return { ok: false, problem, count: data.checker.count };
  return okReport(checked.manifest, checked.fingerprint, options);
}
