import { FlowControls } from "@/components/flow-controls";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { flows } from "@/db/schema";
import { pageAccess } from "@/lib/auth/page-guard";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { gateStatus } from "@/lib/policy/gates";
import { flowFormAction } from "./actions";

export const dynamic = "force-dynamic";

const BADGE: Record<string, string> = { passed: "bg-green-100 text-green-900", failed: "bg-red-100 text-red-900", missing: "bg-slate-200 text-slate-900", stale: "bg-amber-100 text-amber-950" };

export default async function FlowsPage() {
  const access = await pageAccess(PERMISSIONS.healthRead, { type: "console", id: "flows" }, "/console/flows");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await access.db.select().from(flows).orderBy(flows.workflow, flows.profileId);
  const withGates = await Promise.all(rows.map(async (f) => ({ flow: f, gates: await gateStatus(access.db, f) })));
  const canRelease = hasPermission(access.operator.roles, PERMISSIONS.promotionRequest);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Flows</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Each flow is a workflow for one client. Promotion from canary needs all five gates passing against the current version fingerprint, a releaser&apos;s request and a different approver; gates are checked again when it is applied.
      </p>
      <ul className="mt-4 grid gap-3" data-testid="flows">
        {withGates.map(({ flow: f, gates }) => (
          <li key={f.id} className="rounded border border-slate-300 p-3 dark:border-slate-700" data-flow={f.id}>
            <p>
              <strong className="font-mono text-sm">{f.id}</strong> <span className="ml-2 rounded bg-slate-200 px-1 text-xs text-slate-900">{f.stage}{f.stage === "canary" ? ` ${f.canaryPercent}%` : ""}</span>
              {f.retestRequired ? <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-950">retest required</span> : null}
            </p>
            <p className="mt-1 font-mono text-xs" title={JSON.stringify(f.fingerprintInputs)}>fingerprint {f.fingerprint.slice(0, 16)}…</p>
            <ul className="mt-1 flex flex-wrap gap-2 text-xs" aria-label="Gates">
              {gates.map((g) => (
                <li key={g.gate} className={`rounded px-1 ${BADGE[g.status]}`}>
                  {g.gate}: {g.status}
                </li>
              ))}
            </ul>
            {canRelease ? <div className="mt-2"><FlowControls flowId={f.id} action={flowFormAction} /></div> : null}
          </li>
        ))}
      </ul>
    </main>
  );
}
