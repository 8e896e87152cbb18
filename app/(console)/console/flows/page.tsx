import { ControlForm } from "@/components/control-form";
import { FlowControls } from "@/components/flow-controls";
import { GateEvidenceSummary } from "@/components/gate-evidence-summary";
import { GateRunControl } from "@/components/gate-run-control";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { Badge, badgeClass, type BadgeTone } from "@/components/ui/badge";
import { FilterBar } from "@/components/ui/filter-bar";
import { RefusedLine } from "@/components/ui/status-line";
import { WorkflowRollbackForm } from "@/components/workflow-rollback-form";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { consoleControlForms } from "@/lib/controls/registry";
import { flowObservations } from "@/lib/policy/flow-observations";
import { activeKillSwitches } from "@/lib/policy/kill-switch";
import { latestEvidenceSummary } from "@/lib/gates/evidence";
import { describeRefusal, parseSearchParams } from "@/lib/http/search-params";
import { FLOW_STAGES, flowFilterChoices, flowFilterSchema, listFlows } from "@/lib/policy/flow-queries";
import { gateStatus, type GateState } from "@/lib/policy/gates";
import { registeredControlAction } from "../control-actions";
import { flowFormAction, gateRunFormAction, workflowRollbackFormAction } from "./actions";

export const dynamic = "force-dynamic";

const GATE_TONE: Record<GateState["status"], BadgeTone> = {
  passed: "good",
  failed: "bad",
  missing: "neutral",
  stale: "warn",
  unverified: "bad",
};

export default async function FlowsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("flows");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const parsed = parseSearchParams(flowFilterSchema, await searchParams);
  const [rows, choices] = await Promise.all([listFlows(access.db, parsed.data), flowFilterChoices(access.db)]);
  const withGates = await Promise.all(
    rows.map(async (f) => ({ flow: f, gates: await gateStatus(access.db, f), evidence: await latestEvidenceSummary(access.db, f.id) })),
  );
  const observed = await flowObservations(
    access.db,
    rows.map((f) => f.id),
  );
  const canRelease = hasPermission(access.operator.roles, PERMISSIONS.promotionRequest);
  const canRollBack = hasPermission(access.operator.roles, PERMISSIONS.flowRollback);
  const workflows = [...new Set(rows.map((f) => f.workflow))];
  const url = { path: "/console/flows", params: parsed.data };
  const stopped = new Map((await activeKillSwitches(access.db)).map((k) => [k.scope, k]));
  const controlForms = consoleControlForms("flows", access.operator.roles);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Flows</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Each flow is a workflow for one client profile. The profile comes from the access token&apos;s verified client id (mapped on the
        Clients page; anything unmapped is <code>unregistered</code>), never from what a client calls itself. A new flow starts as the
        deployment&apos;s FLOW_NEW_STAGE says (off unless configured). Promotion from canary needs all five gates passing against the
        current version fingerprint, a releaser&apos;s request and a different approver; gates are checked again when it is applied.
      </p>
      <div className="mt-4">
        {parsed.ok ? null : <RefusedLine message={describeRefusal(parsed.fieldErrors)} />}
        <FilterBar
          url={url}
          label="Filter flows"
          clearLabel="Clear filters"
          filters={[
            { kind: "select", name: "stage", label: "Stage", options: FLOW_STAGES, any: "Any" },
            { kind: "select", name: "workflow", label: "Workflow", options: choices.workflows, any: "Any" },
            { kind: "select", name: "client", label: "Client profile", options: choices.clients, any: "Any" },
          ]}
        />
      </div>
      <div data-testid="flows">
        {rows.length === 0 ? <p className="mt-4">No flows match these filters.</p> : null}
        {workflows.map((workflow) => (
          <section key={workflow} className="mt-6" aria-labelledby={`wf-${workflow}`}>
            <h2 id={`wf-${workflow}`} className="text-lg font-semibold">
              <code>{workflow}</code>
            </h2>
            {canRollBack ? (
              <div className="mt-1">
                <WorkflowRollbackForm workflow={workflow} action={workflowRollbackFormAction} />
              </div>
            ) : null}
            <ul className="mt-3 grid gap-3" data-workflow={workflow}>
              {withGates
                .filter(({ flow }) => flow.workflow === workflow)
                .map(({ flow: f, gates, evidence }) => {
                  const seen = observed.get(f.id) ?? [];
                  const own = stopped.get(`flow:${f.id}`);
                  return (
                    <li
                      key={f.id}
                      className="rounded border border-slate-300 p-3 dark:border-slate-700"
                      data-flow={f.id}
                      data-stage={f.stage}
                    >
                      <p>
                        <strong className="font-mono text-sm">{f.id}</strong>{" "}
                        <Badge className="ml-2">
                          {f.stage}
                          {f.stage === "canary" ? ` ${f.canaryPercent}%` : ""}
                        </Badge>
                        {f.retestRequired ? (
                          <Badge tone="warn" className="ml-2">
                            retest required
                          </Badge>
                        ) : null}
                        {own ? (
                          <span className={badgeClass("bad", "ml-2")} data-testid="flow-stopped" title={own.reason}>
                            stopped{own.expiresAt ? ` until ${own.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}
                          </span>
                        ) : null}
                      </p>
                      <p className="mt-1 font-mono text-xs" title={JSON.stringify(f.fingerprintInputs)}>
                        fingerprint {f.fingerprint.slice(0, 16)}…
                      </p>
                      <ul className="mt-1 flex flex-wrap gap-2 text-xs" aria-label="Gates">
                        {gates.map((g) => (
                          <li key={g.gate} className={badgeClass(GATE_TONE[g.status])} title={g.reason}>
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
                                {o.clientName} <span className="font-mono">{o.clientVersion}</span>, {o.modes.join(" and ")}, {o.records}{" "}
                                record(s), last {o.lastSeen.toISOString().slice(0, 10)}
                                {o.newSinceLastGate ? (
                                  <Badge tone="warn" className="ml-2">
                                    new since the last gate run
                                  </Badge>
                                ) : null}
                              </li>
                            ))}
                          </ul>
                        </details>
                      ) : null}
                      {evidence ? <GateEvidenceSummary flowId={f.id} evidence={evidence} /> : null}
                      {canRelease ? (
                        <div className="mt-2">
                          <GateRunControl flowId={f.id} action={gateRunFormAction} />
                        </div>
                      ) : null}
                      {canRelease ? (
                        <div className="mt-2">
                          <FlowControls flowId={f.id} action={flowFormAction} />
                        </div>
                      ) : null}
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
