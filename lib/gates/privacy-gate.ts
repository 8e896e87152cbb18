// Privacy: plant a run-unique canary in every field of the workflow's forms (a valid answer where
// the field takes free text, a refused answer for every field and an undeclared one), in its tool
// arguments, and in content a client wrongly attaches to a URL-mode accept; then search every
// place a value could leak to (canary-search.ts). The evidence lists which places were searched
// and which could not be; one that could not be fails the gate.
import { declaredModes, variantLabel } from "./client-variants";
import { fieldNeeds, grantNeeds, type GateContext } from "./context";
import { canaryAnswer, invalidCanaryAnswer, schemaProperties } from "./form-values";
import { canarySearchChecks } from "./canary-search";
import { withSession } from "./mcp-session";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

export function canaryFor(runId: string): string {
  return `GATECANARY${runId}`;
}

export async function privacyGate(ctx: GateContext, actor: string): Promise<GateResult> {
  const started = performance.now();
  const canary = canaryFor(ctx.runId);
  const checks: CheckResult[] = [];
  let planted = 0;
  const formVariant = ctx.profile.variants.find((v) => declaredModes(v).form);
  for (const need of fieldNeeds(ctx.workflow)) {
    if (formVariant) {
      checks.push(
        await runCheck(
          `plant canaries in ${need.key} (valid answer)`,
          async () => {
            const { content, planted: fields } = canaryAnswer(need.schema, canary);
            const { token } = await ctx.tokens.fresh("pv");
            const r = await withSession(
              ctx.target.mcpUrl,
              token,
              formVariant,
              () => ({ action: "accept", content }),
              (s) => s.call(ctx.workflow.name),
            );
            expectThat(r.structured.outcome === "completed", `the canary answer was not completed (${String(r.structured.outcome)})`);
            planted += fields.length;
            return `free-text fields carrying the canary: ${fields.join(", ") || "none (fixed choices only)"}`;
          },
          variantLabel(formVariant),
        ),
        await runCheck(
          `plant canaries in ${need.key} (refused answer, every field)`,
          async () => {
            const { token } = await ctx.tokens.fresh("pi");
            const r = await withSession(
              ctx.target.mcpUrl,
              token,
              formVariant,
              () => ({ action: "accept", content: invalidCanaryAnswer(need.schema, canary) }),
              (s) => s.call(ctx.workflow.name),
            );
            expectThat(r.structured.outcome === "invalid", `the canary answer was not refused (${String(r.structured.outcome)})`);
            planted += Object.keys(schemaProperties(need.schema)).length + 1;
            return "refused as invalid; every field and one undeclared field carried the canary";
          },
          variantLabel(formVariant),
        ),
      );
    }
  }
  const anyVariant = ctx.profile.variants[0];
  if (anyVariant) {
    checks.push(
      await runCheck(
        "plant canaries in tool arguments",
        async () => {
          const fields = fieldNeeds(ctx.workflow).flatMap((n) => Object.keys(schemaProperties(n.schema)));
          const args = Object.fromEntries([...fields, "gate_extra_argument"].map((k) => [k, canary]));
          const { token } = await ctx.tokens.fresh("pa");
          // Whatever the workflow answers, the arguments must not be kept; a refusal is expected.
          const r = await withSession(
            ctx.target.mcpUrl,
            token,
            anyVariant,
            () => ({ action: "cancel" }),
            (s) => s.call(ctx.workflow.name, args),
          );
          expectThat(r.structured.outcome !== "completed" || fields.length === 0, "arguments made of canaries were accepted");
          planted += fields.length + 1;
          return `${fields.length + 1} argument(s) carried the canary; outcome ${String(r.structured.outcome)}`;
        },
        variantLabel(anyVariant),
      ),
    );
  }
  const urlVariant = ctx.profile.variants.find((v) => declaredModes(v).url && v.revision === "2025-11-25");
  if (grantNeeds(ctx.workflow).length > 0 && urlVariant) {
    checks.push(
      await runCheck(
        "plant canaries in content attached to a URL-mode accept",
        async () => {
          const { token } = await ctx.tokens.fresh("pu");
          const r = await withSession(
            ctx.target.mcpUrl,
            token,
            urlVariant,
            () => ({ action: "accept", content: { password: canary, note: canary } }),
            (s) => s.call(ctx.workflow.name),
          );
          expectThat(r.structured.outcome === "connect_pending", `expected connect_pending, got ${String(r.structured.outcome)}`);
          planted += 2;
          return "URL accept carried two canary fields (content must be dropped)";
        },
        variantLabel(urlVariant),
      ),
    );
  }
  if (checks.length === 0 || planted === 0) {
    checks.push({ name: "canaries planted", outcome: "failed", detail: "no canary could be planted for this flow", ms: 0 });
    return finishGate("privacy", started, checks);
  }
  checks.push(...(await canarySearchChecks(ctx.target, canary, actor)));
  return finishGate("privacy", started, checks);
}
