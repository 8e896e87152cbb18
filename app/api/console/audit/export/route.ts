import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportArchive, exportRequest } from "@/lib/audit/export-archive";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { readGuard } from "@/lib/auth/read-guard";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const guard = await readGuard(PERMISSIONS.auditExport, { type: "audit_log", id: "export" });
  if (!guard.ok) return NextResponse.json(guard.result, { status: guard.status });
  const raw = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
  const parsed = exportRequest.safeParse(raw);
  if (!parsed.success) return NextResponse.json({ ok: false, error: "invalid query", fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
  const { manifest, stream } = await exportArchive(guard.db, { ...parsed.data, operator: guard.operator.subject });
  const name = `audit-evidence-${manifest.exportedAt.replace(/[:.]/g, "-")}.tar`;
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: { "content-type": "application/x-tar", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store", "x-evidence-count": String(manifest.count) },
  });
}
