// describe_capabilities: asks nothing. Tells a client (and whoever debugs it) which elicitation
// modes this session negotiated and how each workflow's needs would be routed for it right now.
import type { Flow } from "@/db/schema";
import type { DeclaredModes } from "@/lib/elicitation/capabilities";
import { decideRoute, policyBlock } from "@/lib/elicitation/router";
import type { PolicySource } from "@/lib/policy/policy-source";
import { policyView } from "@/lib/policy/policy-view";
import type { WorkflowDefinition } from "./types";

/** The tool's listing, the same in both protocol eras. It reads and reports; it never changes anything. */
export const DESCRIBE_CAPABILITIES_TOOL = {
  name: "describe_capabilities",
  title: "Describe capabilities",
  description:
    "Asks nothing. Reports who this session belongs to, which elicitation modes the client declared, and how each workflow's needs would be routed for it now.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

export async function describeCapabilities(
  policy: PolicySource,
  q: {
    subject: string;
    tenantId: string;
    sessionId: string | null;
    client: { name: string; version: string } | null;
    protocolVersion: string;
    declared: unknown;
    modes: DeclaredModes;
    workflows: readonly WorkflowDefinition[];
    flowFor: (wf: WorkflowDefinition) => Promise<Flow>;
  },
) {
  const workflows = [];
  for (const wf of q.workflows) {
    // The flow comes from the verified client id, like a real call's; q.client is only reported.
    const flow = await q.flowFor(wf);
    const view = await policyView(policy, flow, q.subject);
    const needs = wf.needs.map((need) => {
      if (need.kind === "authoritative")
        return { key: need.key, kind: need.kind, route: "read", reason: `read from ${need.source}, never asked` };
      if (need.kind === "approval") {
        const blocked = policyBlock(view, null);
        return {
          key: need.key,
          kind: need.kind,
          route: blocked ? "blocked" : "approval_gate",
          reason: blocked?.reason ?? "an approver decides in the console; never a form field",
        };
      }
      const d = decideRoute(need, q.modes, view);
      return { key: need.key, kind: need.kind, route: d.route, reason: d.reason };
    });
    workflows.push({ name: wf.name, title: wf.title, flow: flow.id, profile: flow.profileId, stage: flow.stage, needs });
  }
  return {
    subject: q.subject,
    tenant: q.tenantId,
    session: q.sessionId,
    client: q.client,
    protocolVersion: q.protocolVersion,
    declaredElicitation: q.declared ?? null,
    modes: q.modes,
    workflows,
  };
}
