// Privacy for an upstream tool's flow: the run's canary in every free-text argument the tool takes
// and in every free-text field of any form the upstream sends during the call (a valid answer, so
// the gateway forwards it), then the same search as for our own workflows (canary-search.ts): the
// store, the audit log and a fresh export, the logs, metrics and traces. The upstream may echo the
// canary back in its result; that goes to the client only and must be kept nowhere.
import { declaredModes, variantLabel } from "./client-variants";
import { canaryAnswer } from "./form-values";
import { canarySearchChecks } from "./canary-search";
import { canaryFor } from "./privacy-gate";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";
import { answerWith, callTool, type UpstreamGateContext } from "./upstream-context";
import { argumentsOrReason } from "./upstream-contract-gate";

export async function upstreamPrivacyGate(ctx: UpstreamGateContext, actor: string): Promise<GateResult> {
  const started = performance.now();
  const canary = canaryFor(ctx.runId);
  const v = ctx.profile.variants.find((x) => declaredModes(x).form) ?? ctx.profile.variants[0];
  const made = argumentsOrReason(ctx, canary);
  if (!v || "reason" in made) {
    const detail = v ? (made as { reason: string }).reason : "could not run: the flow has no client variant";
    return finishGate("privacy", started, [
      { name: "plant canaries in tool arguments and forms", outcome: "could_not_run", detail, ms: 0 },
    ]);
  }
  let planted = made.planted.length;
  const checks: CheckResult[] = [
    await runCheck(
      "plant canaries in tool arguments and forms",
      async () => {
        const formFields: string[] = [];
        const call = await callTool(
          ctx,
          v,
          "pu",
          made.args,
          answerWith((schema) => {
            const { content, planted: fields } = canaryAnswer(schema, canary);
            formFields.push(...fields);
            return content;
          }),
        );
        planted += formFields.length;
        expectThat(
          planted > 0,
          "could not run: the tool takes no free-text argument and the upstream sent no form with a free-text field, so no canary could be planted",
        );
        return `arguments carrying the canary: ${made.planted.join(", ") || "none"}; form fields carrying it: ${formFields.join(", ") || "none"}; call ${call.result.isError ? "failed plainly" : "completed"}`;
      },
      variantLabel(v),
    ),
  ];
  if (planted === 0) {
    checks[0] = { ...checks[0]!, outcome: "could_not_run" };
    return finishGate("privacy", started, checks);
  }
  checks.push(...(await canarySearchChecks(ctx.target, canary, actor)));
  return finishGate("privacy", started, checks);
}
