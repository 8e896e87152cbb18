// Contract for an upstream tool's flow, judged without knowing the tool: in every client variant
// of the flow the call through the gateway completes or fails plainly (a result with a message,
// never a protocol error or a hang), and every elicitation the upstream sent during the call was
// routed as the engine decides for that client's declared modes (a form only to a client that
// declared forms, a link only to one that declared URL mode, else the fallback or a block),
// recorded, ended (none left in flight) and tied to the tools/call that caused it.
import { isUnfinished } from "@/lib/elicitation/record-states";
import { declaredModes, variantLabel, type ClientVariant } from "./client-variants";
import { validAnswer } from "./form-values";
import { UnsatisfiableSchema, toolArguments } from "./tool-arguments";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";
import { answerWith, callTool, type UpstreamCallSeen, type UpstreamGateContext, recordsUnavailable } from "./upstream-context";

const CALL = "the call through the gateway completes or fails plainly";
const ROUTED = "every elicitation the upstream sent was routed for the declared modes, recorded and tied to the call";

/** The arguments, or the reason the gate cannot make them (a "could not run" check). */
export function argumentsOrReason(ctx: UpstreamGateContext, canary?: string) {
  try {
    return toolArguments(ctx.tool.inputSchema, canary);
  } catch (err) {
    if (err instanceof UnsatisfiableSchema)
      return { reason: `could not run: the gate cannot make valid arguments from ${ctx.tool.exposedName}'s inputSchema (${err.message})` };
    throw err;
  }
}

export function routedAsDeclared(call: UpstreamCallSeen, exposedName: string): string {
  const { variant: v, received, records } = call;
  const modes = declaredModes(v);
  for (const e of received) {
    const mode = e.mode ?? "form";
    expectThat(mode === "url" ? modes.url : modes.form, `the client was sent a ${mode} elicitation it did not declare`);
  }
  expectThat(records, "unreachable");
  for (const rec of records) {
    expectThat(!isUnfinished(rec.state), `record ${rec.id} was left ${rec.state} after the call ended`);
    expectThat(
      rec.requestMethod === "tools/call" && rec.toolName === exposedName,
      `record ${rec.id} is not tied to a tools/call of ${exposedName}`,
    );
    // Both revisions: the record names the id of one of the client's own tools/call requests (for
    // 2026-07-28, the first of the call's retries).
    expectThat(
      call.toolCallIds.map(String).includes(rec.requestId),
      `record ${rec.id} names request ${rec.requestId}, not the client's call`,
    );
    if (rec.routeDecision === "form")
      expectThat(modes.form && rec.mode === "form", `record ${rec.id} routed a form to a client without form mode`);
    if (rec.routeDecision === "url")
      expectThat(modes.url && rec.mode === "url", `record ${rec.id} routed a link to a client without URL mode`);
  }
  const shown = (route: string) => records.filter((r) => r.routeDecision === route).length;
  const got = (mode: string) => received.filter((e) => (e.mode ?? "form") === mode).length;
  expectThat(got("form") === shown("form"), `the client was shown ${got("form")} form(s), the records route ${shown("form")} as forms`);
  expectThat(got("url") === shown("url"), `the client was shown ${got("url")} link(s), the records route ${shown("url")} as links`);
  if (records.length === 0) return "the upstream sent no elicitation during this call";
  // A fallback or a block says why (the engine's reason: no value, only the rule that decided).
  const routes = records
    .map(
      (r) => `${r.mode}->${r.routeDecision}${r.routeDecision === "fallback" || r.routeDecision === "blocked" ? ` [${r.routeReason}]` : ""}`,
    )
    .join(", ");
  return `${records.length} elicitation(s) (${routes}), each recorded, ended and tied to tools/call`;
}

async function variantChecks(ctx: UpstreamGateContext, v: ClientVariant): Promise<CheckResult[]> {
  const label = variantLabel(v);
  const made = argumentsOrReason(ctx);
  if ("reason" in made) return [{ name: CALL, outcome: "could_not_run", detail: made.reason, variant: label, ms: 0 }];
  let call: UpstreamCallSeen | undefined;
  const first = await runCheck(
    CALL,
    async () => {
      call = await callTool(ctx, v, "uc", made.args, answerWith(validAnswer));
      const { result } = call;
      const outcome = typeof result.structured.outcome === "string" ? `; gateway outcome ${result.structured.outcome}` : "";
      if (!result.isError) return `completed${outcome}`;
      expectThat(result.text.trim().length > 0, "the call failed with no message for the person");
      return `failed plainly with a message (${result.text.length} characters)${outcome}`;
    },
    label,
  );
  const routed = !call
    ? { name: ROUTED, outcome: "could_not_run" as const, detail: "could not run: the call did not return", variant: label, ms: 0 }
    : !call.records
      ? {
          name: ROUTED,
          outcome: "could_not_run" as const,
          detail: `could not run: ${recordsUnavailable(ctx)}`,
          variant: label,
          ms: 0,
        }
      : await runCheck(ROUTED, async () => routedAsDeclared(call!, ctx.tool.exposedName), label);
  return [first, routed];
}

export async function upstreamContractGate(ctx: UpstreamGateContext): Promise<GateResult> {
  const started = performance.now();
  const checks: CheckResult[] = [];
  for (const v of ctx.profile.variants) checks.push(...(await variantChecks(ctx, v)));
  return finishGate("contract", started, checks);
}
