import { NextResponse } from "next/server";
import { auditApiQuery, listAudit } from "@/lib/audit/queries";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requireOperator } from "@/lib/auth/require-operator";
import { refusedJson } from "@/lib/controls/route-handler";
import { parseSearchParams } from "@/lib/http/search-params";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const guard = await requireOperator(PERMISSIONS.auditRead, { type: "audit_log", id: "list" }, { view: true });
  if (!guard.ok) return refusedJson(guard);
  const parsed = parseSearchParams(auditApiQuery, new URL(req.url).searchParams);
  if (!parsed.ok) return NextResponse.json({ ok: false, error: "invalid query", fieldErrors: parsed.fieldErrors }, { status: 400 });
  const rows = await listAudit(guard.db, { action: parsed.data.action, actorId: parsed.data.actor, limit: parsed.data.limit });
  return NextResponse.json({ ok: true, data: rows });
}
