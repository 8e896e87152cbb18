// purge_report_cache: a consequential action. It never asks for approval in a form: the first call
// opens an approval request; a retried call proceeds only once an approver has approved it.
import { passApprovalGate } from "@/lib/approvals/workflow-approvals";
import { policyView } from "@/lib/policy/policy-view";
import { policyBlock } from "@/lib/elicitation/router";
import { defineWorkflow, textResult } from "./types";

export const purgeReportCache = defineWorkflow({
  name: "purge_report_cache",
  title: "Purge the report cache",
  description: "Deletes your tenant's cached reports. Consequential: an approver must approve each purge; call again once approved.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  needs: [
    { kind: "approval", key: "purge_approval", purpose: "Approval to purge the tenant's report cache", action: "purge_report_cache" },
  ],
  async run(rt) {
    // The kill switch and the flow stage govern this workflow too (as a form would be governed).
    const policy = await policyView(rt.policy, rt.flow, rt.subject);
    const blocked = policyBlock(policy, null);
    if (blocked) return textResult(`Not done: ${blocked.reason}.`, { outcome: "blocked", reason: blocked.reason }, true);

    const outcome = await passApprovalGate(rt.db, {
      subject: rt.subject,
      tenantId: rt.tenantId,
      action: "purge_report_cache",
      flowId: rt.flow.id,
      reason: "purge the tenant's report cache",
    });
    if (outcome.state === "pending") {
      const since = outcome.approval.createdAt.toISOString();
      return textResult(
        `${outcome.created ? "Approval requested" : "Still waiting for approval"}: ${outcome.approval.id} (since ${since}). An approver decides it in the console or with \`ctl approvals\`; call this tool again once it is approved. Nothing was done yet.`,
        { outcome: "approval_pending", approval: outcome.approval.id },
      );
    }
    if (outcome.state === "rejected") {
      return textResult(
        `The purge was rejected by an approver (${outcome.approval.decisionReason ?? "no reason given"}). Nothing was done.`,
        { outcome: "approval_rejected", approval: outcome.approval.id },
        true,
      );
    }
    return textResult(
      `Report cache for ${rt.tenantId} purged (approval ${outcome.approval.id}, approved by ${outcome.approval.decidedBy}).`,
      { outcome: "completed", approval: outcome.approval.id },
    );
  },
});
