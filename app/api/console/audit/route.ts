import { NextResponse } from "next/server";
import { z } from "zod";
import { listAudit } from "@/lib/audit/queries";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requireOperator } from "@/lib/auth/require-operator";
import { refusedJson } from "@/lib/controls/route-handler";
import { queryTextSchema } from "@/lib/http/params";

export const dynamic = "force-dynamic";

const query = z.object({
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/).optional(),
  actor: queryTextSchema().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export async function GET(req: Request) {
  const guard = await requireOperator(PERMISSIONS.auditRead, { type: "audit_log", id: "list" }, { view: true });
  if (!guard.ok) return refusedJson(guard);
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return NextResponse.json({ ok: false, error: "invalid query", fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
  const rows = await listAudit(guard.db, { action: parsed.data.action, actorId: parsed.data.actor, limit: parsed.data.limit });
  return NextResponse.json({ ok: true, data: rows });
}
