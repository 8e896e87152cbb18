import { NextResponse } from "next/server";
import { requireOperator } from "@/lib/auth/require-operator";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { controlRoute, refusedJson } from "@/lib/controls/route-handler";
import { activeKillSwitches } from "@/lib/policy/kill-switch";
import { killSwitchAction } from "@/lib/policy/kill-switch-actions";

export const dynamic = "force-dynamic";

export async function GET() {
  const access = await requireOperator(PERMISSIONS.healthRead, { type: "kill_switch", id: "status" }, { view: true });
  if (!access.ok) return refusedJson(access);
  return NextResponse.json({ ok: true, data: await activeKillSwitches(access.db) });
}

export const POST = controlRoute(killSwitchAction);
