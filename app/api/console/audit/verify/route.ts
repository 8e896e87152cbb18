import { NextResponse } from "next/server";
import { loadSigner } from "@/lib/audit/signing";
import { verifyUpload, verifyUploadLimit } from "@/lib/audit/verify-upload";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requireOperator } from "@/lib/auth/require-operator";
import { refusedJson } from "@/lib/controls/route-handler";
import { sameOriginOnly } from "@/lib/auth/request-guard";

export const dynamic = "force-dynamic";

// The body is the evidence .tar itself, read as a stream (never buffered, never written to disk).
export const POST = sameOriginOnly("upload", async (req: Request) => {
  const guard = await requireOperator(PERMISSIONS.auditVerify, { type: "audit_log", id: "verify" });
  if (!guard.ok) return refusedJson(guard);
  const res = await verifyUpload(
    guard.db,
    guard.operator.subject,
    {
      contentType: req.headers.get("content-type"),
      contentLength: req.headers.get("content-length"),
      body: req.body as AsyncIterable<Uint8Array> | null,
    },
    { maxBytes: verifyUploadLimit(), trustedFingerprint: loadSigner().keyFingerprint },
  );
  return NextResponse.json(res.body, { status: res.status });
});
