import path from "node:path";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { exportAudit, ExportError } from "@/lib/audit/export";
import { EXPORT_FORMATS, type ExportFormat } from "@/lib/audit/manifest";
import { loadSigner } from "@/lib/audit/signing";
import { EvidenceUnreadableError, verifyExport } from "@/lib/audit/verify-export";
import { emit, isoDate, parse } from "../args";
import { CliError, UsageError } from "../errors";
import { withStore } from "../store";

const USAGE = "usage: ctl audit export --out DIR [--from ISO] [--to ISO] [--format ndjson|csv] [--force] [--json]\n       ctl audit verify DIR [--fingerprint sha256:HEX] [--json]\n       ctl audit verify-store [--json]";

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
    from: { type: "string" },
    to: { type: "string" },
    format: { type: "string", default: "ndjson" },
    force: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (!values.out) throw new UsageError(`--out DIR is required; run "ctl audit help" for usage`);
  if (!EXPORT_FORMATS.includes(values.format as ExportFormat)) throw new UsageError(`--format must be ndjson or csv, not "${values.format}"`);
  const from = isoDate("from", values.from);
  const to = isoDate("to", values.to);
  if (from && to && from >= to) throw new UsageError("--from must be before --to");
  const signer = loadSigner();
  const outDir = path.resolve(values.out);
  const manifest = await withStore("ctl audit export", async (store) => {
    try {
      return await exportAudit({ db: store.db, outDir, format: values.format as ExportFormat, from, to, signer, actor: { type: "system", id: "ctl" } });
    } catch (err) {
      if (err instanceof ExportError) throw new CliError(err.message);
      throw err;
    }
  });
  emit(values.json ?? false, { ok: true, dir: outDir, count: manifest.count, firstSeq: manifest.firstSeq, lastSeq: manifest.lastSeq, keyFingerprint: manifest.signer.keyFingerprint }, `exported ${manifest.count} entries to ${outDir} (signed by ${manifest.signer.keyFingerprint}${signer.source === "development" ? ", development key" : ""})`);
  return 0;
}

async function auditVerify(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { fingerprint: { type: "string" }, json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError(`audit verify takes exactly one directory; run "ctl audit help" for usage`);
  const json = values.json ?? false;
  let report;
  try {
    report = await verifyExport(path.resolve(positionals[0]!), { trustedFingerprint: values.fingerprint });
  } catch (err) {
    if (err instanceof EvidenceUnreadableError) throw new CliError(err.message, 2);
    throw err;
  }
  if (!report.ok) {
    emit(json, report, `FAILED: ${report.problem}`);
    return 1;
  }
  const trust = report.keyTrust === "pinned" ? "pinned key" : "key embedded in the manifest; pin it with --fingerprint";
  emit(json, report, `OK: ${report.count} entries (seq ${report.firstSeq ?? "-"}..${report.lastSeq ?? "-"}), chain intact, signature valid (${report.keyFingerprint}, ${trust})`);
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
