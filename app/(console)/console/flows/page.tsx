import { ControlForm } from "@/components/control-form";
import { FlowControls } from "@/components/flow-controls";
import { GateEvidenceSummary } from "@/components/gate-evidence-summary";
import { GateRunControl } from "@/components/gate-run-control";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { WorkflowRollbackForm } from "@/components/workflow-rollback-form";
import { flows } from "@/db/schema";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { consoleControlForms } from "@/lib/controls/registry";
import { flowObservations } from "@/lib/policy/flow-observations";
import { activeKillSwitches } from "@/lib/policy/kill-switch";
import { latestEvidenceSummary } from "@/lib/gates/evidence";
import { gateStatus } from "@/lib/policy/gates";
import { registeredControlAction } from "../control-actions";
import { flowFormAction, gateRunFormAction, workflowRollbackFormAction } from "./actions";

export const dynamic = "force-dynamic";

const BADGE: Record<string, string> = { passed: "bg-green-100 text-green-900", failed: "bg-red-100 text-red-900", missing: "bg-slate-200 text-slate-900", stale: "bg-amber-100 text-amber-950" };

export default async function FlowsPage() {
  const access = await consolePageAccess("flows");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await access.db.select().from(flows).orderBy(flows.workflow, flows.profileId);
  const withGates = await Promise.all(rows.map(async (f) => ({ flow: f, gates: await gateStatus(access.db, f), evidence: await latestEvidenceSummary(access.db, f.id) })));
  const observed = await flowObservations(access.db, rows.map((f) => f.id));
  const canRelease = hasPermission(access.operator.roles, PERMISSIONS.promotionRequest);
  const canRollBack = hasPermission(access.operator.roles, PERMISSIONS.flowRollback);
  const workflows = [...new Set(rows.map((f) => f.workflow))];
  // A flow's own switch (a kill switch or a pause, which is one with an expiry) shows on its row.
  const stopped = new Map((await activeKillSwitches(access.db)).map((k) => [k.scope, k]));
  const controlForms = consoleControlForms("flows", access.operator.roles);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Flows</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Each flow is a workflow for one client profile. The profile comes from the access token&apos;s verified client id (mapped on the Clients page; anything unmapped is <code>unregistered</code>), never from what a client calls itself. A new flow starts as the deployment&apos;s FLOW_NEW_STAGE says (off unless configured). Promotion from canary needs all five gates passing against the current version fingerprint, a releaser&apos;s request and a different approver; gates are checked again when it is applied.
      </p>
      <div data-testid="flows">
      {workflows.map((workflow) => (
        <section key={workflow} className="mt-6" aria-labelledby={`wf-${workflow}`}>
          <h2 id={`wf-${workflow}`} className="text-lg font-semibold">
            <code>{workflow}</code>
          </h2>
          {canRollBack ? <div className="mt-1"><WorkflowRollbackForm workflow={workflow} action={workflowRollbackFormAction} /></div> : null}
          <ul className="mt-3 grid gap-3" data-workflow={workflow}>
            {withGates.filter(({ flow }) => flow.workflow === workflow).map(({ flow: f, gates, evidence }) => {
              const seen = observed.get(f.id) ?? [];
              const own = stopped.get(`flow:${f.id}`);
              return (
                <li key={f.id} className="rounded border border-slate-300 p-3 dark:border-slate-700" data-flow={f.id}>
                  <p>
                    <strong className="font-mono text-sm">{f.id}</strong> <span className="ml-2 rounded bg-slate-200 px-1 text-xs text-slate-900">{f.stage}{f.stage === "canary" ? ` ${f.canaryPercent}%` : ""}</span>
                    {f.retestRequired ? <span className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-950">retest required</span> : null}
                    {own ? (
                      <span className="ml-2 rounded bg-red-100 px-1 text-xs text-red-900" data-testid="flow-stopped" title={own.reason}>
                        stopped{own.expiresAt ? ` until ${own.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}
                      </span>
                    ) : null}
                  </p>
                  <p className="mt-1 font-mono text-xs" title={JSON.stringify(f.fingerprintInputs)}>fingerprint {f.fingerprint.slice(0, 16)}…</p>
                  <ul className="mt-1 flex flex-wrap gap-2 text-xs" aria-label="Gates">
                    {gates.map((g) => (
                      <li key={g.gate} className={`rounded px-1 ${BADGE[g.status]}`}>
                        {g.gate}: {g.status}
                      </li>
                    ))}
                  </ul>
                  {seen.length ? (
                    <details className="mt-2 text-xs">
                      <summary>Observed clients ({seen.length}): what they declared, not what selects the flow</summary>
                      <ul className="mt-1 grid gap-0.5" aria-label={`Observed clients of ${f.id}`}>
                        {seen.map((o) => (
                          <li key={`${o.clientName}@${o.clientVersion}`}>
                            {o.clientName} <span className="font-mono">{o.clientVersion}</span>, {o.modes.join(" and ")}, {o.records} record(s), last {o.lastSeen.toISOString().slice(0, 10)}
                            {o.newSinceLastGate ? <span className="ml-2 rounded bg-amber-100 px-1 text-amber-950">new since the last gate run</span> : null}
                          </li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                  {evidence ? <GateEvidenceSummary flowId={f.id} evidence={evidence} /> : null}
                  {canRelease ? <div className="mt-2"><GateRunControl flowId={f.id} action={gateRunFormAction} /></div> : null}
                  {canRelease ? <div className="mt-2"><FlowControls flowId={f.id} action={flowFormAction} /></div> : null}
                  {controlForms.map((c) => (
                    <div key={c.name} className="mt-2">
                      <ControlForm spec={c} rowId={f.id} action={registeredControlAction.bind(null, c.name)} />
                    </div>
                  ))}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      </div>
    </main>
  );
}
