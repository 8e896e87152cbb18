import { ApprovalDecisionForm } from "@/components/approval-decision-form";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { pendingApprovals } from "@/lib/approvals/decide";
import { consolePageAccess } from "@/lib/console/page-access";
import { decideFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const access = await consolePageAccess("approvals");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await pendingApprovals(access.db);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Approvals</h1>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Promotion requests and consequential workflow actions waiting for an approver. Nobody decides their own request.
      </p>
      {rows.length === 0 ? <p>Nothing is waiting.</p> : null}
      <ul className="grid gap-4" data-testid="approvals">
        {rows.map((a) => (
          <li key={a.id} className="rounded border border-slate-300 p-3 dark:border-slate-700">
            <p>
              <strong>{a.kind === "promotion" ? "Promotion" : "Workflow action"}</strong> <code>{a.action}</code> ({a.id})
            </p>
            <p className="text-sm">
              Asked by <span className="font-mono">{a.requestedBy}</span>
              {a.tenantId ? ` (tenant ${a.tenantId})` : ""} since {a.createdAt.toISOString()}: {a.reason}
            </p>
            <ApprovalDecisionForm id={a.id} action={decideFormAction} />
          </li>
        ))}
      </ul>
    </main>
  );
}
