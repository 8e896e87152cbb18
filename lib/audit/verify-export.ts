// Offline verification of an evidence directory: no database, only the files and (optionally) a
// pinned key. It names the first place that is wrong: a changed, removed, inserted or reordered
// line, a manifest that was edited, or a signature from another key.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { parse } from "csv-parse";
import { computeHash, type AuditEntry } from "./canonical";
import { CSV_COLUMNS, MANIFEST_FILE, manifestSchema, signedPayload, type Manifest } from "./manifest";
import { fingerprintOf, publicKeyFromBase64, verifySignature } from "./signing";

export class EvidenceUnreadableError extends Error {
  override name = "EvidenceUnreadableError";
}

export interface VerifyOptions {
  /** Expected signer fingerprint (sha256:...). Without it the manifest's own key is used. */
  trustedFingerprint?: string;
}

export type VerifyReport =
  | { ok: true; count: number; firstSeq: number | null; lastSeq: number | null; keyFingerprint: string; keyTrust: "pinned" | "embedded" }
  | { ok: false; problem: string; line?: number; seq?: number; count: number };

const ENTRY_KEYS = 11; // v + the nine hashed fields + hash

export async function verifyExport(dir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const manifestPath = path.join(dir, MANIFEST_FILE);
  let raw: string;
  try {
    raw = fs.readFileSync(manifestPath, "utf8");
  } catch (err) {
    throw new EvidenceUnreadableError(`cannot read ${manifestPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(raw));
  } catch (err) {
    const why = err instanceof SyntaxError ? "not JSON" : "missing or invalid fields";
    return { ok: false, problem: `manifest.json is malformed (${why})`, count: 0 };
  }

  let key;
  try {
    key = publicKeyFromBase64(manifest.signer.publicKey);
  } catch {
    return { ok: false, problem: "manifest.json carries an unusable public key", count: 0 };
  }
  const fingerprint = fingerprintOf(key);
  if (fingerprint !== manifest.signer.keyFingerprint) {
    return { ok: false, problem: "manifest key fingerprint does not match its public key", count: 0 };
  }
  if (options.trustedFingerprint && options.trustedFingerprint !== fingerprint) {
    return { ok: false, problem: `signed by ${fingerprint}, not the trusted key ${options.trustedFingerprint}`, count: 0 };
  }
  if (!verifySignature(key, signedPayload(manifest), manifest.signature)) {
    return { ok: false, problem: "manifest signature does not match (manifest edited after signing)", count: 0 };
  }
  if (path.basename(manifest.file) !== manifest.file) {
    return { ok: false, problem: "manifest names a data file outside the evidence directory", count: 0 };
  }

  const dataPath = path.join(dir, manifest.file);
  if (!fs.existsSync(dataPath)) return { ok: false, problem: `${manifest.file} is missing`, count: 0 };

  const checker = new ChainChecker(manifest);
  const fileHash = createHash("sha256");
  const input = fs.createReadStream(dataPath);
  input.on("data", (chunk) => fileHash.update(chunk));
  const failure = manifest.format === "csv" ? await checkCsv(input, checker) : await checkNdjson(input, checker);
  input.destroy();
  if (failure) return { ...failure, count: checker.count };

  const end = checker.finish();
  if (end) return { ok: false, problem: end, count: checker.count };
  // Every line checked out; anything else that differs (whitespace, line endings) shows here.
  await new Promise<void>((resolve) => (input.closed ? resolve() : input.once("close", () => resolve())));
  if (fileHash.digest("hex") !== manifest.fileSha256) {
    return { ok: false, problem: `${manifest.file} differs from the signed file hash`, count: checker.count };
  }
  return {
    ok: true,
    count: checker.count,
    firstSeq: manifest.firstSeq,
    lastSeq: manifest.lastSeq,
    keyFingerprint: fingerprint,
    keyTrust: options.trustedFingerprint ? "pinned" : "embedded",
  };
}

type Failure = { ok: false; problem: string; line: number; seq?: number };

async function checkNdjson(input: fs.ReadStream, checker: ChainChecker): Promise<Failure | undefined> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      lines.close();
      return { ok: false, problem: `line ${lineNo}: not valid JSON`, line: lineNo };
    }
    const problem = checker.check(parsed, lineNo);
    if (problem) {
      lines.close();
      return problem;
    }
  }
  return undefined;
}

async function checkCsv(input: fs.ReadStream, checker: ChainChecker): Promise<Failure | undefined> {
  const parser = input.pipe(parse({ info: true, relax_column_count: true }));
  let header = true;
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const lineNo = item.info.lines;
    const r = item.record;
    if (header) {
      header = false;
      if (r.join(",") !== CSV_COLUMNS.join(",")) return { ok: false, problem: `line ${lineNo}: unexpected CSV header`, line: lineNo };
      continue;
    }
    if (r.length !== CSV_COLUMNS.length) return { ok: false, problem: `line ${lineNo}: expected ${CSV_COLUMNS.length} columns`, line: lineNo };
    let detail: unknown;
    try {
      detail = JSON.parse(r[7]!);
    } catch {
      return { ok: false, problem: `line ${lineNo}: detail is not valid JSON`, line: lineNo };
    }
    const entry = {
      v: 1,
      seq: Number(r[0]),
      ts: r[1],
      actorType: r[2],
      actorId: r[3],
      action: r[4],
      targetType: r[5],
      targetId: r[6],
      detail,
      prevHash: r[8],
      hash: r[9],
    };
    const problem = checker.check(entry, lineNo);
    if (problem) return problem;
  }
  return undefined;
}

class ChainChecker {
  count = 0;
  private expectedSeq: number | null;
  private prevHash: string | null;
  private lastHash: string | null = null;

  constructor(private readonly manifest: Manifest) {
    this.expectedSeq = manifest.firstSeq;
    this.prevHash = manifest.firstPrevHash;
  }

  check(value: unknown, line: number): Failure | undefined {
    const fail = (problem: string, seq?: number): Failure => ({ ok: false, problem: `line ${line}: ${problem}`, line, seq });
    if (typeof value !== "object" || value === null) return fail("not an audit entry");
    const e = value as AuditEntry & { v?: unknown };
    if (Object.keys(e).length !== ENTRY_KEYS || e.v !== 1 || typeof e.hash !== "string") return fail("not an audit entry (fields added or missing)");
    if (!Number.isSafeInteger(e.seq)) return fail("seq is not a whole number");
    if (this.expectedSeq === null) return fail("the manifest lists no entries, but the file has some", e.seq);
    if (e.seq !== this.expectedSeq) {
      const why = e.seq > this.expectedSeq ? "an entry was removed here or the lines were reordered" : "lines were reordered or an entry was duplicated";
      return fail(`expected seq ${this.expectedSeq}, found ${e.seq}: ${why}`, e.seq);
    }
    const { hash, v: _v, ...body } = e;
    void _v;
    if (computeHash(body) !== hash) return fail(`entry ${e.seq} was changed (its hash does not match its content)`, e.seq);
    if (e.prevHash !== this.prevHash) return fail(`entry ${e.seq} does not link to the entry before it`, e.seq);
    this.count++;
    this.expectedSeq = e.seq + 1;
    this.prevHash = hash;
    this.lastHash = hash;
    return undefined;
  }

  finish(): string | undefined {
    const m = this.manifest;
    if (this.count !== m.count) {
      return `the file holds ${this.count} entries but the manifest says ${m.count} (entries removed at the end)`;
    }
    if (this.lastHash !== m.lastHash) return "the last entry is not the one the manifest names";
    return undefined;
  }
}
