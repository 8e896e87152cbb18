import { ForbiddenNotice } from "@/components/forbidden-notice";
import { ScrollRegion } from "@/components/scroll-region";
import { AddUpstreamForm, RemoveUpstreamForm } from "@/components/upstream-forms";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { probeUpstreams, upstreamOutcomes } from "@/lib/gateway/queries";
import { authOf, listUpstreams } from "@/lib/gateway/registry";
import { addUpstreamFormAction, removeUpstreamFormAction } from "./actions";

export const dynamic = "force-dynamic";

const OUTCOMES = ["completed", "declined", "cancelled", "validation_failed", "not_sent", "failed", "timed_out"] as const;

export default async function UpstreamsPage() {
  const access = await consolePageAccess("upstreams");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await listUpstreams(access.db);
  const [health, outcomes] = await Promise.all([probeUpstreams(rows), upstreamOutcomes(access.db)]);
  const canManage = hasPermission(access.operator.roles, PERMISSIONS.upstreamsManage);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Upstreams</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        MCP servers behind the gateway. Their tools appear to the listed tenants as <code>id__tool</code>; every elicitation they send is linted, routed, re-validated and recorded like our own. Health is this instance&apos;s last contact; outcomes come from the store (<code>not_sent</code> covers blocked and fallback).
      </p>
      <ScrollRegion label="Upstreams table" className="mt-4">
        <table className="w-full text-left text-sm" data-testid="upstreams-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              {["Id", "Name", "URL", "Credential", "Tenants", "Tools", "URL origins", "Reachable", "Tools listed", "Latency", "Last error", ...OUTCOMES, ...(canManage ? ["Action"] : [])].map((h) => (
                <th key={h} scope="col" className="px-2 py-1">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((u) => {
              const h = health.get(u.id);
              const o = outcomes.get(u.id) ?? {};
              return (
                <tr key={u.id} className="border-b border-slate-100 dark:border-slate-900">
                  <td className="px-2 py-1 font-mono text-xs">{u.id}</td>
                  <td className="px-2 py-1">{u.displayName}</td>
                  <td className="px-2 py-1 font-mono text-xs">{u.url}</td>
                  <td className="px-2 py-1 text-xs">{authOf(u).kind}</td>
                  <td className="px-2 py-1 font-mono text-xs">{u.tenants.join(", ")}</td>
                  <td className="px-2 py-1 font-mono text-xs">{u.exposedTools.join(", ")}</td>
                  <td className="px-2 py-1 font-mono text-xs">{u.urlOrigins.join(", ") || "-"}</td>
                  <td className="px-2 py-1">{h?.reachable === null || h === undefined ? "unknown" : h.reachable ? "yes" : "no"}</td>
                  <td className="px-2 py-1 tabular-nums">{h?.tools ?? "-"}</td>
                  <td className="px-2 py-1 tabular-nums">{h?.latencyMs != null ? `${h.latencyMs} ms` : "-"}</td>
                  <td className="px-2 py-1 text-xs">{h?.lastError ? `${h.lastError} (${h.lastErrorAt?.toISOString().slice(0, 16)})` : "-"}</td>
                  {OUTCOMES.map((s) => (
                    <td key={s} className="px-2 py-1 tabular-nums">{o[s] ?? 0}</td>
                  ))}
                  {canManage ? <td className="px-2 py-1"><RemoveUpstreamForm id={u.id} action={removeUpstreamFormAction} /></td> : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {canManage ? <div className="mt-4"><AddUpstreamForm action={addUpstreamFormAction} /></div> : null}
    </main>
  );
}
