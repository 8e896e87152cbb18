import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportArchive, exportRequest } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requireOperator } from "@/lib/auth/require-operator";
import { refusedJson } from "@/lib/controls/route-handler";
import { sameOriginOnly } from "@/lib/auth/request-guard";

export const dynamic = "force-dynamic";

// A GET that writes (an audit entry and a signed export): only from this app's own pages, never an
// <img> or link on another origin, even one on the same host.
export const GET = sameOriginOnly("download", async (req: Request) => {
  const guard = await requireOperator(PERMISSIONS.auditExport, { type: "audit_log", id: "export" });
  if (!guard.ok) return refusedJson(guard);
  const raw = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
  const parsed = exportRequest.safeParse(raw);
  if (!parsed.success)
    return NextResponse.json({ ok: false, error: "invalid query", fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
  // Streamed: the first part leaves while the rest is still being read (lib/audit/export-archive.ts).
  const { stream, startedAt } = exportArchive({
    db: guard.db,
    ...parsed.data,
    signer: loadSigner(),
    actor: { type: "operator", id: guard.operator.subject },
  });
  const name = `audit-evidence-${startedAt.toISOString().replace(/[:.]/g, "-")}.tar`;
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: { "content-type": "application/x-tar", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
  });
});
