// The console's verify upload, kept out of the route so it can be tested over plain HTTP: the body
// is the .tar the export download produced, verified as it streams in (verify-archive.ts), under a
// hard byte cap. Every outcome, refusals included, is audited without any value from the upload.
// The archive is checked against this deployment's own signing key, never only the key it carries:
// an archive re-chained and signed with any fresh key is self-consistent, and the console is where
// an auditor checks evidence an operator handed over (the red team's F5).
import type { Db } from "@/db/client";
import { AUDIT_ACTIONS } from "./actions";
import { EvidenceFormatError, EvidenceTooLargeError, verifyArchive } from "./verify-archive";
import type { VerifyReport } from "./verify-export";
import { appendAudit } from "./writer";
import { type Env, readSetting } from "@/lib/config/schema";

export const ARCHIVE_CONTENT_TYPE = "application/x-tar";

/** AUDIT_VERIFY_MAX_BYTES: the largest archive the console verifies (bytes read, not declared). */
export function verifyUploadLimit(env: Env = process.env): number {
  return readSetting(env, "AUDIT_VERIFY_MAX_BYTES");
}

export interface UploadRequest {
  contentType: string | null;
  contentLength: string | null;
  body: AsyncIterable<Uint8Array> | null;
}

export type UploadResponse =
  { status: 200; body: { ok: true; data: VerifyReport } } | { status: 400 | 413; body: { ok: false; error: string } };

type Outcome = "verified" | "failed" | "refused" | "too_large";

async function record(db: Db, operator: string, outcome: Outcome, report?: VerifyReport, reason?: string): Promise<void> {
  await db.transaction((tx) =>
    appendAudit(tx, {
      actorType: "operator",
      actorId: operator,
      action: AUDIT_ACTIONS.auditVerified,
      targetType: "evidence",
      targetId: "upload",
      // Problems and reasons are fixed phrases with numbers (never names or bytes from the upload).
      detail: {
        ok: report?.ok ?? false,
        outcome,
        count: report?.count ?? 0,
        ...(report && !report.ok ? { problem: report.problem.slice(0, 200) } : {}),
        ...(reason ? { reason: reason.slice(0, 200) } : {}),
      },
    }),
  );
}

function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export interface UploadCheck {
  maxBytes: number;
  /** The fingerprint of the key the archive must be signed with (this deployment's). */
  trustedFingerprint: string;
}

export async function verifyUpload(db: Db, operator: string, req: UploadRequest, check: UploadCheck): Promise<UploadResponse> {
  const { maxBytes, trustedFingerprint } = check;
  const refuse = async (status: 400 | 413, error: string, outcome: Outcome): Promise<UploadResponse> => {
    await record(db, operator, outcome, undefined, error);
    return { status, body: { ok: false, error } };
  };
  if (mediaType(req.contentType) !== ARCHIVE_CONTENT_TYPE)
    return refuse(400, `send the evidence archive (.tar) as the request body with Content-Type ${ARCHIVE_CONTENT_TYPE}`, "refused");
  // A declared length over the cap is refused before reading; an undeclared one is cut at the cap.
  const declared = req.contentLength === null ? undefined : Number(req.contentLength);
  if (declared !== undefined && Number.isFinite(declared) && declared > maxBytes)
    return refuse(413, `the archive is larger than the limit of ${maxBytes} bytes`, "too_large");
  if (!req.body) return refuse(400, "the request has no body", "refused");
  let report: VerifyReport;
  try {
    report = await verifyArchive(req.body, { maxBytes, discardRest: true, trustedFingerprint });
  } catch (err) {
    if (err instanceof EvidenceTooLargeError) return refuse(413, err.message, "too_large");
    if (err instanceof EvidenceFormatError) return refuse(400, `not an evidence archive: ${err.message}`, "refused");
    throw err;
  }
  await record(db, operator, report.ok ? "verified" : "failed", report);
  return { status: 200, body: { ok: true, data: report } };
}
