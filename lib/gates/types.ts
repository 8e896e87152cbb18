// The shapes every gate shares: a check is one thing driven against the target with its outcome
// and timing; a gate's outcome follows from its checks. "not_applicable" carries its reason and
// passes (recovery on a form-only flow); "could_not_run" fails (a gate that did not run proves
// nothing, e.g. accessibility without a browser).
import type { Gate } from "@/lib/policy/gates";

export const CHECK_OUTCOMES = ["passed", "failed", "not_applicable", "could_not_run"] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

export interface CheckResult {
  name: string;
  outcome: CheckOutcome;
  /** Why, in words: what was expected and what happened. Never a form value. */
  detail: string;
  /** The client variant it ran with (name/version/revision), when it is per variant. */
  variant?: string;
  ms: number;
}

export interface GateResult {
  gate: Gate;
  outcome: CheckOutcome;
  /** The first failing check's name and detail, or the reason it is not applicable. */
  reason: string | null;
  checks: CheckResult[];
  ms: number;
}

export function gatePassed(r: Pick<GateResult, "outcome">): boolean {
  return r.outcome === "passed" || r.outcome === "not_applicable";
}

export function gateOutcome(checks: readonly CheckResult[]): { outcome: CheckOutcome; reason: string | null } {
  const bad = checks.find((c) => c.outcome === "failed" || c.outcome === "could_not_run");
  if (bad) return { outcome: bad.outcome, reason: `${bad.name}${bad.variant ? ` (${bad.variant})` : ""}: ${bad.detail}` };
  if (checks.length > 0 && checks.every((c) => c.outcome === "not_applicable"))
    return { outcome: "not_applicable", reason: checks[0]!.detail };
  // A gate with no checks proved nothing.
  if (checks.length === 0) return { outcome: "could_not_run", reason: "no check ran" };
  return { outcome: "passed", reason: null };
}

/** Thrown inside a check: its message becomes the check's failure detail. */
export class CheckFailure extends Error {
  override name = "CheckFailure";
}

export function expectThat(condition: unknown, detail: string): asserts condition {
  if (!condition) throw new CheckFailure(detail);
}

/** Runs one check, timing it; an unexpected error fails the check with its message. */
export async function runCheck(
  name: string,
  body: () => Promise<string | { outcome: CheckOutcome; detail: string }>,
  variant?: string,
): Promise<CheckResult> {
  const started = performance.now();
  try {
    const r = await body();
    const { outcome, detail } = typeof r === "string" ? { outcome: "passed" as const, detail: r } : r;
    return { name, outcome, detail, ...(variant ? { variant } : {}), ms: Math.round(performance.now() - started) };
  } catch (err) {
    const detail = err instanceof CheckFailure ? err.message : `unexpected error: ${(err as Error).message ?? String(err)}`;
    return {
      name,
      outcome: "failed",
      detail: detail.slice(0, 500),
      ...(variant ? { variant } : {}),
      ms: Math.round(performance.now() - started),
    };
  }
}

export async function finishGate(gate: Gate, started: number, checks: CheckResult[]): Promise<GateResult> {
  return { gate, ...gateOutcome(checks), checks, ms: Math.round(performance.now() - started) };
}
