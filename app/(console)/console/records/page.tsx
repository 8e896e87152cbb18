import Link from "next/link";
import { AutoRefresh } from "@/components/auto-refresh";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { RecordsFilters } from "@/components/records-filters";
import { RecordsTable } from "@/components/records-table";
import { elicitationState } from "@/db/schema";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { engineConfig } from "@/lib/elicitation/config";
import { filterChoices, isStuck, listRecords, parseRecordFilters } from "@/lib/elicitation/record-queries";
import { UNFINISHED } from "@/lib/elicitation/revoke";
import { revokeFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("records");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const f = parseRecordFilters(await searchParams);
  const [{ rows, next }, choices] = await Promise.all([listRecords(access.db, f), filterChoices(access.db)]);
  const timeout = engineConfig().formTimeoutMs;
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
    unfinished: (UNFINISHED as readonly string[]).includes(r.state),
  }));
  const nextParams = new URLSearchParams(Object.entries({ ...f, after: next ?? "" }).filter(([, v]) => v) as [string, string][]);
  return (
    <main id="main">
      <AutoRefresh seconds={10} />
      <h1 className="text-2xl font-bold">Records</h1>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">Field names, decisions and keywords only. Refreshes every 10 seconds.</p>
      <RecordsFilters f={f} states={elicitationState.enumValues} flows={choices.flows} clients={choices.clients} />
      <RecordsTable rows={data} revoke={revokeFormAction} canRevoke={hasPermission(access.operator.roles, PERMISSIONS.recordsRevoke)} />
      <nav aria-label="Pages" className="mt-3 flex gap-4">
        {f.after ? <Link className="underline" href={`/console/records?${new URLSearchParams(Object.entries({ ...f, after: "" }).filter(([, v]) => v) as [string, string][])}`}>First page</Link> : null}
        {next ? <Link className="underline" href={`/console/records?${nextParams}`} data-testid="next-page">Next page</Link> : null}
      </nav>
    </main>
  );
}
