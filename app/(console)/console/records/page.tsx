import { AutoRefresh } from "@/components/auto-refresh";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { RecordsTable } from "@/components/records-table";
import { FilterBar } from "@/components/ui/filter-bar";
import { RefusedLine } from "@/components/ui/status-line";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { engineConfig } from "@/lib/elicitation/config";
import { filterChoices, isStuck, listRecords, RECORD_STATES, recordFilterSchema } from "@/lib/elicitation/record-queries";
import { isUnfinished } from "@/lib/elicitation/record-states";
import { describeRefusal, parseSearchParams } from "@/lib/http/search-params";
import { revokeFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("records");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const parsed = parseSearchParams(recordFilterSchema, await searchParams);
  const f = parsed.data;
  const [{ rows, next }, choices] = await Promise.all([listRecords(access.db, f), filterChoices(access.db)]);
  const timeout = engineConfig().formTimeoutMs;
  // eslint-disable-next-line react-hooks/purity -- a server component renders once per request: "now" is that request's time
  const now = Date.now();
  const data = rows.map((r) => ({
    id: r.id,
    state: r.state,
    mode: r.mode,
    toolName: r.toolName,
    flowId: r.flowId,
    client: `${r.clientName} ${r.clientVersion}`,
    routeDecision: r.routeDecision,
    createdAt: r.createdAt.toISOString(),
    ageSeconds: Math.max(0, Math.round((now - r.createdAt.getTime()) / 1000)),
    stuck: isStuck(r, timeout, now),
    unfinished: isUnfinished(r.state),
  }));
  // The URL state without the cursor: filters and sort carry over to every link, the cursor never.
  const { after, ...applied } = f;
  const url = { path: "/console/records", params: applied, defaults: { sort: "newest" } };
  return (
    <main id="main">
      <AutoRefresh seconds={10} />
      <h1 className="text-2xl font-bold">Records</h1>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Field names, decisions and keywords only. Refreshes every 10 seconds.
      </p>
      {parsed.ok ? null : <RefusedLine message={describeRefusal(parsed.fieldErrors)} />}
      <FilterBar
        url={url}
        label="Filter records"
        filters={[
          { kind: "select", name: "state", label: "State", options: RECORD_STATES, any: "Any" },
          { kind: "select", name: "mode", label: "Mode", options: ["form", "url"], any: "Any" },
          { kind: "select", name: "flow", label: "Flow", options: choices.flows, any: "Any" },
          { kind: "select", name: "client", label: "Client", options: choices.clients, any: "Any" },
          { kind: "checkbox", name: "inflight", label: "In flight only", value: "1" },
          {
            kind: "select",
            name: "sort",
            label: "Sort",
            options: [
              { value: "newest", label: "Newest first" },
              { value: "oldest", label: "Oldest first" },
            ],
          },
        ]}
      />
      <RecordsTable
        rows={data}
        revoke={revokeFormAction}
        canRevoke={hasPermission(access.operator.roles, PERMISSIONS.recordsRevoke)}
        url={url}
        sort={{ param: "sort", current: f.sort, columns: { ageSeconds: { asc: "newest", desc: "oldest" } } }}
        paging={{ param: "after", current: after, next }}
      />
    </main>
  );
}
