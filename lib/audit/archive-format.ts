// The evidence archive (one .tar, as the console download and `ctl audit export --tar` write it):
//
//   audit.ndjson.000001 .. audit.ndjson.NNNNNN   the data file in consecutive parts (or audit.csv.*)
//   manifest.json                                the signed manifest (names the data file, its SHA-256)
//   manifest.json.sig                            raw 64-byte Ed25519 signature over manifest.json's bytes
//   signer.pub.pem                               the signer's public key (SPKI PEM)
//
// WHY parts: a tar header states its entry's size before the bytes, and the export streams from a
// cursor, so the size of the whole data file is unknown until the end. Each part is buffered (at
// most PART_BYTES plus one line), so memory stays flat and the first bytes leave after the first
// part. Parts end on line boundaries and concatenate, in name order, to the data file:
// `cat audit.ndjson.* | sha256sum` gives the manifest's fileSha256. The manifest comes last because
// it holds the count, last hash and file hash, known only once every entry has been written.
import { DATA_FILE, MANIFEST_FILE, type ExportFormat } from "./manifest";

export const SIGNATURE_FILE = `${MANIFEST_FILE}.sig`;
export const PUBLIC_KEY_FILE = "signer.pub.pem";
export const PART_BYTES = 1024 * 1024;
export const PART_DIGITS = 6;
export const MAX_PARTS = 10 ** PART_DIGITS - 1;

/** Names allowed after the data parts, in this order. */
export const TAIL_FILES = [MANIFEST_FILE, SIGNATURE_FILE, PUBLIC_KEY_FILE] as const;

export function partName(format: ExportFormat, index: number): string {
  if (!Number.isInteger(index) || index < 1 || index > MAX_PARTS) throw new Error(`part ${index} is out of range`);
  return `${DATA_FILE[format]}.${String(index).padStart(PART_DIGITS, "0")}`;
}

const PART_PATTERN = new RegExp(`^audit\\.(ndjson|csv)\\.(\\d{${PART_DIGITS}})$`);

/** Parses a data-part entry name; undefined for every other name (the caller refuses those). */
export function parsePartName(name: string): { format: ExportFormat; index: number } | undefined {
  const m = PART_PATTERN.exec(name);
  if (!m) return undefined;
  const index = Number(m[2]);
  return index >= 1 ? { format: m[1] as ExportFormat, index } : undefined;
}
