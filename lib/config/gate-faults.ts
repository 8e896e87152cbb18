// GATE_TEST_FAULTS: deliberate defects for proving that the release gates catch them (tests only).
// "log-form-values" logs accepted form content verbatim; "skip-browser-user-check" lets any
// signed-in browser user continue another user's connect link; "new-record-on-retry" makes a retried
// URL-mode call open a second record instead of offering the pending one again; "timeout-not-recorded"
// tells the call its form timed out but leaves the record open; "approval-not-consumed" lets one
// approval authorise every later run. Refused with APP_ENV=production,
// like MCP_CONFORMANCE_FIXTURES: no production deployment can be started with one.
import type { Env } from "@/db/config";
import { isProduction } from "./app-env";

export const GATE_FAULTS = [
  "log-form-values",
  "skip-browser-user-check",
  "new-record-on-retry",
  "timeout-not-recorded",
  "approval-not-consumed",
] as const;
export type GateFault = (typeof GATE_FAULTS)[number];

const NONE: ReadonlySet<GateFault> = new Set();
// Read on every form answer and connect view: parsed once per distinct value, not per call.
let parsed: { raw: string; production: boolean; faults: ReadonlySet<GateFault> } | undefined;

export function gateFaults(env: Env = process.env): ReadonlySet<GateFault> {
  const raw = env.GATE_TEST_FAULTS?.trim();
  if (!raw) return NONE;
  const production = isProduction(env);
  if (parsed && parsed.raw === raw && parsed.production === production) return parsed.faults;
  const faults = parseFaults(raw, env);
  parsed = { raw, production, faults };
  return faults;
}

function parseFaults(raw: string, env: Env): ReadonlySet<GateFault> {
  const names = raw.split(",").map((s) => s.trim());
  for (const n of names)
    if (!(GATE_FAULTS as readonly string[]).includes(n))
      throw new Error(`GATE_TEST_FAULTS: unknown fault "${n}" (known: ${GATE_FAULTS.join(", ")})`);
  if (isProduction(env))
    throw new Error("GATE_TEST_FAULTS is refused with APP_ENV=production: the faults exist only to prove the release gates");
  return new Set(names as GateFault[]);
}

export function gateFault(name: GateFault, env: Env = process.env): boolean {
  return gateFaults(env).has(name);
}
