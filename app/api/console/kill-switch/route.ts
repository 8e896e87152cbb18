import { NextResponse } from "next/server";
import { readGuard } from "@/lib/auth/read-guard";
import { runOperatorAction } from "@/lib/auth/operator-action";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { sameOriginOnly } from "@/lib/auth/request-guard";
import { activeKillSwitches } from "@/lib/policy/kill-switch";
import { killSwitchAction } from "@/lib/policy/kill-switch-actions";

export const dynamic = "force-dynamic";

export async function GET() {
  const guard = await readGuard(PERMISSIONS.healthRead, { type: "kill_switch", id: "status" });
  if (!guard.ok) return NextResponse.json(guard.result, { status: guard.status });
  return NextResponse.json({ ok: true, data: await activeKillSwitches(guard.db) });
}

export const POST = sameOriginOnly("json", async (req: Request) => {
  const body = await req.json().catch(() => null);
  const { status, result } = await runOperatorAction(killSwitchAction, body);
  return NextResponse.json(result, { status });
});
