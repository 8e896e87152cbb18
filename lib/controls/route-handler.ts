// The route-handler adapter: a JSON POST from the same origin runs the control; the status code
// and body are the control's outcome (400 bad input, 401/403 refused and audited, 409 an expected
// domain error, 503 the store refused).
import { NextResponse } from "next/server";
import type { z } from "zod";
import { sameOriginOnly } from "@/lib/auth/request-guard";
import type { OperatorControl } from "./control";
import { runControl } from "./run-control";

export function controlRoute<S extends z.ZodType, T>(control: OperatorControl<S, T>) {
  return sameOriginOnly("json", async (req: Request) => {
    const body: unknown = await req.json().catch(() => null);
    const { status, result } = await runControl(control, body);
    return NextResponse.json(result, { status });
  });
}

/** The JSON answer for a refused read (requireOperator's 401/403). */
export function refusedJson(refusal: { status: 401 | 403; error: string }): NextResponse {
  return NextResponse.json({ ok: false, error: refusal.error }, { status: refusal.status });
}
