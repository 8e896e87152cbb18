// The mode router: decides, before any side effect, how a need may be met for this session.
// Pure: the caller supplies the client's declared modes, the policy in force and the lint verdict.
import type { DeclaredModes } from "./capabilities";
import type { Need } from "./needs";
import { inSpanSync } from "@/lib/telemetry/spans";

export type Route = "form" | "url" | "fallback" | "blocked";

export interface PolicyView {
  /** Kill switches in force that apply to this flow: global, mode:form, mode:url, flow:ID, workflow:NAME. */
  killed: Array<{ scope: string; reason: string }>;
  flowStage: "off" | "canary" | "promoted" | "rolled_back";
  inCanaryCohort: boolean;
  flowId: string;
  /** The flow's workflow: a `workflow:NAME` switch stops it for every client profile. */
  workflow: string;
  /** Gateway mode: the upstream that asked; an `upstream:ID` switch stops all its elicitations. */
  upstream?: string;
}

export interface RouteDecision {
  route: Route;
  reason: string;
}

function killedFor(policy: PolicyView, mode: "form" | "url" | null) {
  return policy.killed.find(
    (k) =>
      k.scope === "global" ||
      k.scope === `flow:${policy.flowId}` ||
      k.scope === `workflow:${policy.workflow}` ||
      (policy.upstream !== undefined && k.scope === `upstream:${policy.upstream}`) ||
      (mode !== null && k.scope === `mode:${mode}`),
  );
}

/** The policy part of a decision: kill switches and the flow's stage. Undefined means "go on". */
export function policyBlock(policy: PolicyView, mode: "form" | "url" | null): RouteDecision | undefined {
  const killed = killedFor(policy, mode);
  // The operator's free-text reason stays with operators (console, audit): this reason reaches end
  // users and the model in tool results, so it names the scope only (red team F6).
  if (killed) return { route: "blocked", reason: `kill switch ${killed.scope} is engaged (stopped by an operator)` };
  if (policy.flowStage === "off" || policy.flowStage === "rolled_back")
    return { route: "blocked", reason: `flow ${policy.flowId} is ${policy.flowStage.replace("_", " ")}` };
  if (policy.flowStage === "canary" && !policy.inCanaryCohort)
    return { route: "blocked", reason: `flow ${policy.flowId} is in canary and this subject is not in the cohort` };
  return undefined;
}

/** The engine's decision, in an `elicitation.decide` span (need kind and route only: no reason text). */
export function decideRoute(
  need: Need,
  modes: DeclaredModes,
  policy: PolicyView,
  lint?: { verdict: "allow" | "block"; codes: string[] },
): RouteDecision {
  return inSpanSync("elicitation.decide", { "elicitation.need_kind": need.kind }, (span) => {
    const decision = decide(need, modes, policy, lint);
    span?.setAttribute("elicitation.route", decision.route);
    return decision;
  });
}

function decide(
  need: Need,
  modes: DeclaredModes,
  policy: PolicyView,
  lint?: { verdict: "allow" | "block"; codes: string[] },
): RouteDecision {
  if (need.kind === "authoritative") throw new Error("authoritative values are read, never routed");
  if (need.kind === "approval") throw new Error("approvals go to the approval gate, never to a form");
  const blocked = policyBlock(policy, need.kind === "field" ? "form" : "url");
  if (blocked) return blocked;

  if (need.kind === "field") {
    if (lint?.verdict === "block") return { route: "blocked", reason: `form request refused by the linter: ${lint.codes.join(", ")}` };
    if (modes.form) return { route: "form", reason: "client declared form mode" };
    return { route: "fallback", reason: "client declared no form mode" };
  }
  // Credentials, payment and grants: URL mode or a path outside the workflow, never a form.
  if (modes.url) return { route: "url", reason: `client declared URL mode; ${need.kind} never goes in a form` };
  return { route: "fallback", reason: `client declared no URL mode; ${need.kind} never goes in a form` };
}
