// Recovery and accessibility for an upstream tool's flow. Both are about URL mode: our own flows'
// connect and setup pages. An upstream's link leads to its own site, whose completion the gate
// cannot drive and whose pages it does not serve. So: "not applicable" with the reason when no
// link from the upstream reached a person in this run (none sent, or every one blocked: phishing
// judges those); when one did (shown in URL mode, or given as the fallback), what the gateway owns
// is checked (every URL-mode record ended, none left in flight) and what lies at the upstream's
// site is said to be not driven ("could not run", which fails: a check that did not run never passes).
import { isUnfinished } from "@/lib/elicitation/record-states";
import { expectThat, finishGate, type CheckResult, type GateResult, runCheck } from "./types";
import { recordsUnavailable, type UpstreamGateContext, type UpstreamRecordSeen } from "./upstream-context";

type UrlSeen =
  { kind: "none"; sent: number } | { kind: "unknown" } | { kind: "reached"; records: UpstreamRecordSeen[] | null; origins: string[] };

function urlSeen(ctx: UpstreamGateContext): UrlSeen {
  const links = ctx.seen.flatMap((c) => c.received).filter((e) => e.mode === "url");
  const originOf = (u: unknown) => {
    try {
      return new URL(String(u)).origin;
    } catch {
      return "(unparseable)";
    }
  };
  // Without the target's store a link given as the fallback cannot be seen: say so, never "none".
  if (ctx.seen.some((c) => c.records === null))
    return links.length > 0
      ? { kind: "reached", records: null, origins: [...new Set(links.map((l) => originOf(l.url)))] }
      : { kind: "unknown" };
  const records = ctx.seen.flatMap((c) => c.records ?? []).filter((r) => r.mode === "url");
  // A link reaches a person when it is shown in URL mode or handed over as the fallback.
  const reached = records.filter((r) => r.routeDecision === "url" || r.routeDecision === "fallback");
  if (reached.length === 0 && links.length === 0) return { kind: "none", sent: records.length };
  // A link handed over passed the upstream's allowlist: where the record keeps no origin, it is one of those.
  const allowed = `one of ${ctx.tool.upstream.urlOrigins.join(", ")}`;
  const origins = [...new Set([...links.map((l) => originOf(l.url)), ...reached.map((r) => r.targetOrigin ?? allowed)])];
  return { kind: "reached", records, origins };
}

function notReached(ctx: UpstreamGateContext, seen: Exclude<UrlSeen, { kind: "reached" }>, name: string): CheckResult {
  const calls = `${ctx.seen.length} call(s)`;
  if (seen.kind === "unknown")
    return {
      name,
      outcome: "could_not_run",
      detail: `could not run: whether a link reached a person as the fallback is unknown: ${recordsUnavailable(ctx)}`,
      ms: 0,
    };
  return {
    name,
    outcome: "not_applicable",
    detail:
      seen.sent > 0
        ? `not applicable: the gateway blocked every link the upstream sent (${seen.sent}) in this run (${calls}), so no link reached a person (phishing judges the blocked links)`
        : `not applicable: the upstream sent no URL-mode elicitation in this run (${calls}); an upstream tool's forms are covered by contract, privacy and phishing`,
    ms: 0,
  };
}

export async function upstreamRecoveryGate(ctx: UpstreamGateContext): Promise<GateResult> {
  const started = performance.now();
  const seen = urlSeen(ctx);
  if (seen.kind !== "reached") return finishGate("recovery", started, [notReached(ctx, seen, "URL-mode recovery")]);
  const { records, origins } = seen;
  const ended = "every URL-mode record the run opened ended (none left in flight)";
  const checks: CheckResult[] = [
    records === null
      ? {
          name: ended,
          outcome: "could_not_run",
          detail: `could not run: ${recordsUnavailable(ctx)}`,
          ms: 0,
        }
      : await runCheck(ended, async () => {
          for (const r of records) expectThat(!isUnfinished(r.state), `record ${r.id} was left ${r.state}`);
          return `${records.length} URL-mode record(s), each ended`;
        }),
    {
      name: "lost accept, lost completion and retries at the upstream's site",
      outcome: "could_not_run",
      detail: `could not run: the link leads to the upstream's own site (${origins.join(", ")}), whose completion the gate cannot drive`,
      ms: 0,
    },
  ];
  return finishGate("recovery", started, checks);
}

export async function upstreamAccessibilityGate(ctx: UpstreamGateContext): Promise<GateResult> {
  const started = performance.now();
  const seen = urlSeen(ctx);
  if (seen.kind !== "reached") return finishGate("accessibility", started, [notReached(ctx, seen, "URL-mode pages")]);
  const { origins } = seen;
  return finishGate("accessibility", started, [
    {
      name: "the pages the link leads to (axe, keyboard only)",
      outcome: "could_not_run",
      detail: `could not run: the link leads to the upstream's own pages (${origins.join(", ")}), which this deployment does not serve`,
      ms: 0,
    },
  ]);
}
