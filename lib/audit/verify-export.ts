// Offline verification of an evidence directory: no database, only the files and (optionally) a
// pinned key. It names the first place that is wrong: a changed, removed, inserted or reordered
// line, a manifest that was edited, or a signature from another key. The directory holds either the
// data file whole (`ctl audit export --out`) or the parts of an extracted archive.
import fs from "node:fs";
import path from "node:path";
import { partName, PUBLIC_KEY_FILE, SIGNATURE_FILE } from "./archive-format";
import { compareWithManifest } from "./chain-checker";
import { dataVerifier } from "./data-verifier";
import { checkDetached, checkManifest, type ManifestCheckOptions } from "./manifest-check";
import { MANIFEST_FILE, type Manifest } from "./manifest";

export class EvidenceUnreadableError extends Error {
  override name = "EvidenceUnreadableError";
}

export type VerifyOptions = ManifestCheckOptions;

export type VerifyReport =
  | { ok: true; count: number; firstSeq: number | null; lastSeq: number | null; keyFingerprint: string; keyTrust: "pinned" | "embedded" }
  | { ok: false; problem: string; line?: number; seq?: number; count: number };

export function okReport(manifest: Manifest, fingerprint: string, options: VerifyOptions): VerifyReport {
  return {
    ok: true,
    count: manifest.count,
    firstSeq: manifest.firstSeq,
    lastSeq: manifest.lastSeq,
    keyFingerprint: fingerprint,
    keyTrust: options.trustedFingerprint ? "pinned" : "embedded",
  };
}

function dataFiles(dir: string, manifest: Manifest): string[] {
  const whole = path.join(dir, manifest.file);
  if (fs.existsSync(whole)) return [whole];
  const parts: string[] = [];
  for (let i = 1; ; i++) {
    const p = path.join(dir, partName(manifest.format, i));
    if (!fs.existsSync(p)) return parts;
    parts.push(p);
  }
}

export async function verifyExport(dir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const manifestPath = path.join(dir, MANIFEST_FILE);
  let raw: Buffer;
  try {
    raw = fs.readFileSync(manifestPath);
  } catch (err) {
    throw new EvidenceUnreadableError(`cannot read ${manifestPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const checked = checkManifest(raw, options);
  if (!checked.ok) return { ok: false, problem: checked.problem, count: 0 };
  const { manifest } = checked;
  // The detached signature and key travel with archives; older directories may not have them.
  const sigPath = path.join(dir, SIGNATURE_FILE);
  const pemPath = path.join(dir, PUBLIC_KEY_FILE);
  if (fs.existsSync(sigPath) || fs.existsSync(pemPath)) {
    const problem =
      fs.existsSync(sigPath) && fs.existsSync(pemPath)
        ? checkDetached(checked, raw, fs.readFileSync(sigPath), fs.readFileSync(pemPath))
        : `${SIGNATURE_FILE} and ${PUBLIC_KEY_FILE} come together`;
    if (problem) return { ok: false, problem, count: 0 };
  }

  const files = dataFiles(dir, manifest);
  if (files.length === 0) return { ok: false, problem: "the data file is missing", count: 0 };
  const verifier = dataVerifier(manifest.format);
  for (const file of files) {
    for await (const chunk of fs.createReadStream(file)) {
      const failure = verifier.write(chunk as Buffer);
      if (failure) return { ...failure, count: verifier.checker.count };
    }
  }
  const failure = verifier.end();
  if (failure) return { ...failure, count: verifier.checker.count };
  const problem = compareWithManifest(verifier.checker.result(), manifest, verifier.fileSha256());
  if (problem) return { ok: false, problem, count: verifier.checker.count };
  return okReport(manifest, checked.fingerprint, options);
}
