import { ForbiddenNotice } from "@/components/forbidden-notice";
import { AddUpstreamForm } from "@/components/upstream-forms";
import { UpstreamsTable } from "@/components/upstreams-table";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { probeUpstreams, upstreamOutcomes } from "@/lib/gateway/queries";
import { authOf, listUpstreams } from "@/lib/gateway/registry";
import { addUpstreamFormAction, removeUpstreamFormAction } from "./actions";

export const dynamic = "force-dynamic";

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
        MCP servers behind the gateway. Their tools appear to the listed tenants as <code>id__tool</code>; every elicitation they send is
        linted, routed, re-validated and recorded like our own. Health is this instance&apos;s last contact; outcomes come from the store (
        <code>not_sent</code> covers blocked and fallback).
      </p>
      <UpstreamsTable
        remove={canManage ? removeUpstreamFormAction : undefined}
        rows={rows.map((u) => {
          const h = health.get(u.id);
          return {
            id: u.id,
            displayName: u.displayName,
            url: u.url,
            credential: authOf(u).kind,
            tenants: u.tenants,
            exposedTools: u.exposedTools,
            urlOrigins: u.urlOrigins,
            reachable: h?.reachable ?? null,
            revision: h?.revision ?? null,
            tools: h?.tools ?? null,
            toolsNotice: h?.toolsNotice ?? null,
            latencyMs: h?.latencyMs ?? null,
            lastError: h?.lastError ? `${h.lastError} (${h.lastErrorAt?.toISOString().slice(0, 16)})` : null,
            outcomes: outcomes.get(u.id) ?? {},
          };
        })}
      />
      {canManage ? (
        <div className="mt-4">
          <AddUpstreamForm action={addUpstreamFormAction} />
        </div>
      ) : null}
    </main>
  );
}
