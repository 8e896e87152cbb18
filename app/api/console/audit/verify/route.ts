import { NextResponse } from "next/server";
import { verifyUploaded } from "@/lib/audit/export-archive";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { readGuard } from "@/lib/auth/read-guard";
import { sameOriginOnly } from "@/lib/auth/request-guard";

export const dynamic = "force-dynamic";

const MAX_UPLOAD = 512 * 1024 * 1024;

export const POST = sameOriginOnly("upload", async (req: Request) => {
  const guard = await readGuard(PERMISSIONS.auditVerify, { type: "audit_log", id: "verify" });
  if (!guard.ok) return NextResponse.json(guard.result, { status: guard.status });
  if (Number(req.headers.get("content-length") ?? 0) > MAX_UPLOAD) return NextResponse.json({ ok: false, error: "upload too large" }, { status: 413 });
  const form = await req.formData().catch(() => null);
  const manifest = form?.get("manifest");
  const data = form?.get("data");
  if (!(manifest instanceof File) || !(data instanceof File)) return NextResponse.json({ ok: false, error: "send manifest.json as 'manifest' and the data file as 'data'" }, { status: 400 });
  const report = await verifyUploaded({ manifest: Buffer.from(await manifest.arrayBuffer()), data: Buffer.from(await data.arrayBuffer()), dataName: data.name });
  await guard.db.transaction((tx) =>
    appendAudit(tx, { actorType: "operator", actorId: guard.operator.subject, action: AUDIT_ACTIONS.auditVerified, targetType: "evidence", targetId: "upload", detail: { ok: report.ok, count: report.count, ...(report.ok ? {} : { problem: report.problem.slice(0, 200) }) } }),
  );
  return NextResponse.json({ ok: true, data: report });
});
