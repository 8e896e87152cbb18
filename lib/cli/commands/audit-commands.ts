import fs from "node:fs";
import path from "node:path";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { exportAudit, ExportError } from "@/lib/audit/export";
import { writeArchive } from "@/lib/audit/export-archive";
import { EXPORT_FORMATS, type ExportFormat, type Manifest } from "@/lib/audit/manifest";
import { loadSigner } from "@/lib/audit/signing";
import { EvidenceFormatError, EvidenceTooLargeError, verifyArchive } from "@/lib/audit/verify-archive";
import { EvidenceUnreadableError, verifyExport, type VerifyReport } from "@/lib/audit/verify-export";
import { emit, isoDate, parse } from "../args";
import { CliError, UsageError } from "../errors";
import { provenOperatorOrNone } from "../operator-proof";
import { progress } from "../progress";
import { withStore } from "../store";

const USAGE =
  "usage: ctl audit export (--out DIR | --tar FILE) [--from ISO] [--to ISO] [--format ndjson|csv] [--force] [--json]\n" +
  "       ctl audit verify (DIR | FILE.tar | -) [--fingerprint sha256:HEX] [--json]\n" +
  "       ctl audit verify-store [--json]";

// An archive read from a file or stdin is streamed, never held whole: the cap only bounds the work.
const CLI_ARCHIVE_MAX_BYTES = Number.MAX_SAFE_INTEGER;

export async function auditCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "export":
      return auditExport(rest);
    case "verify":
      return auditVerify(rest);
    case "verify-store":
      return auditVerifyStore(rest);
    default:
      if (!sub || sub === "help") {
        process.stdout.write(USAGE + "\n");
        return sub ? 0 : 2;
      }
      throw new UsageError(`unknown audit command "${sub}"; run "ctl audit help" for usage`);
  }
}

async function auditExport(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    out: { type: "string" },
    tar: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    format: { type: "string", default: "ndjson" },
    force: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (!values.out === !values.tar) throw new UsageError(`give exactly one of --out DIR or --tar FILE; run "ctl audit help" for usage`);
  if (values.tar === "-") throw new UsageError("--tar needs a file name (the archive is not written to stdout)");
  if (!EXPORT_FORMATS.includes(values.format as ExportFormat))
    throw new UsageError(`--format must be ndjson or csv, not "${values.format}"`);
  const from = isoDate("from", values.from);
  const to = isoDate("to", values.to);
  if (from && to && from >= to) throw new UsageError("--from must be before --to");
  const signer = loadSigner();
  const target = path.resolve((values.out ?? values.tar)!);
  if (values.tar && !values.force && fs.existsSync(target))
    throw new CliError(`${target} already exists; choose another file or pass --force`);
  // The CLI export is host-level access (it needs the store's credentials and the signing key), so
  // it is not refused without a login; but when an operator is signed in (`ctl login`), the export
  // and its audit entry name that person instead of the anonymous "ctl".
  const operator = await provenOperatorOrNone();
  const actor = operator ? { type: "operator" as const, id: operator } : { type: "system" as const, id: "ctl" };
  const manifest: Manifest = await withStore("ctl audit export", async (store) => {
    const bar = progress("exporting", "entries (by seq)");
    const req = {
      db: store.db,
      format: values.format as ExportFormat,
      from,
      to,
      signer,
      actor,
      onProgress: (seq: number, head: number) => bar.update(seq, head),
    };
    try {
      return values.tar ? await writeArchive(req, target) : await exportAudit({ ...req, outDir: target, force: values.force });
    } catch (err) {
      if (err instanceof ExportError) throw new CliError(err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (values.tar && typeof code === "string") throw new CliError(`cannot write ${target}: ${code}`);
      throw err;
    } finally {
      bar.stop();
    }
  });
  const key = `${manifest.signer.keyFingerprint}${signer.source === "development" ? ", development key" : ""}`;
  emit(
    values.json ?? false,
    {
      ok: true,
      [values.tar ? "file" : "dir"]: target,
      count: manifest.count,
      firstSeq: manifest.firstSeq,
      lastSeq: manifest.lastSeq,
      keyFingerprint: manifest.signer.keyFingerprint,
    },
    `exported ${manifest.count} entries to ${target} (signed by ${key})`,
  );
  return 0;
}

/** Passes the chunks on unchanged, reporting the bytes read so far. */
async function* counted(input: AsyncIterable<Uint8Array>, onBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  let n = 0;
  for await (const chunk of input) {
    n += chunk.length;
    onBytes(n);
    yield chunk;
  }
}

async function verifyTarget(target: string, trustedFingerprint: string | undefined): Promise<VerifyReport> {
  try {
    if (target === "-") return await verifyArchive(process.stdin, { maxBytes: CLI_ARCHIVE_MAX_BYTES, trustedFingerprint });
    const resolved = path.resolve(target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(resolved);
    } catch (err) {
      throw new EvidenceUnreadableError(`cannot read ${resolved}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    if (stat.isDirectory()) return await verifyExport(resolved, { trustedFingerprint });
    const bar = progress("verifying", "bytes");
    try {
      return await verifyArchive(
        counted(fs.createReadStream(resolved), (n) => bar.update(n, stat.size)),
        { maxBytes: CLI_ARCHIVE_MAX_BYTES, trustedFingerprint },
      );
    } finally {
      bar.stop();
    }
  } catch (err) {
    if (err instanceof EvidenceUnreadableError) throw new CliError(err.message, 2);
    if (err instanceof EvidenceFormatError || err instanceof EvidenceTooLargeError)
      return { ok: false, problem: `not an evidence archive: ${err.message}`, count: 0 };
    if (typeof (err as NodeJS.ErrnoException).code === "string")
      throw new CliError(`cannot read ${target}: ${(err as NodeJS.ErrnoException).code}`, 2);
    throw err;
  }
}

async function auditVerify(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { fingerprint: { type: "string" }, json: { type: "boolean" } }, true);
  if (positionals.length !== 1)
    throw new UsageError(`audit verify takes exactly one directory, .tar file or - (stdin); run "ctl audit help" for usage`);
  const json = values.json ?? false;
  const report = await verifyTarget(positionals[0]!, values.fingerprint);
  if (!report.ok) {
    emit(json, report, `FAILED: ${report.problem}`);
    return 1;
  }
  const trust = report.keyTrust === "pinned" ? "pinned key" : "key embedded in the manifest; pin it with --fingerprint";
  emit(
    json,
    report,
    `OK: ${report.count} entries (seq ${report.firstSeq ?? "-"}..${report.lastSeq ?? "-"}), chain intact, signature valid (${report.keyFingerprint}, ${trust})`,
  );
  return 0;
}

async function auditVerifyStore(argv: string[]): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } });
  const report = await withStore("ctl audit verify-store", (store) => verifyStoredChain(store.db));
  if (!report.ok) {
    emit(values.json ?? false, report, `FAILED: ${report.problem} (after ${report.count} good entries)`);
    return 1;
  }
  emit(values.json ?? false, report, `OK: ${report.count} entries, head ${report.headSeq} ${report.headHash ?? ""}`.trim());
  return 0;
}
