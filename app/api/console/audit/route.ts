import { NextResponse } from "next/server";
import { z } from "zod";
import { AUDIT_ACTION_VALUES } from "@/lib/audit/actions";
import { listAudit } from "@/lib/audit/queries";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { readGuard } from "@/lib/auth/read-guard";
import { queryTextSchema } from "@/lib/http/params";

export const dynamic = "force-dynamic";

const query = z.object({
  // Only actions this product writes: a misspelt filter is an error, not an empty page.
  action: z.enum(AUDIT_ACTION_VALUES).optional(),
  actor: queryTextSchema().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export async function GET(req: Request) {
  const guard = await readGuard(PERMISSIONS.auditRead, { type: "audit_log", id: "list" });
  if (!guard.ok) return NextResponse.json(guard.result, { status: guard.status });
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return NextResponse.json({ ok: false, error: "invalid query", fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
  const rows = await listAudit(guard.db, { action: parsed.data.action, actorId: parsed.data.actor, limit: parsed.data.limit });
  return NextResponse.json({ ok: true, data: rows });
}
