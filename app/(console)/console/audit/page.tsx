import { ScrollRegion } from "@/components/scroll-region";
import Link from "next/link";
import { EvidenceVerifyForm } from "@/components/evidence-verify-form";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { listAudit } from "@/lib/audit/queries";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { one, queryText, safeWholeNumber } from "@/lib/http/params";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("audit");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const sp = await searchParams;
  const rawAction = one(sp.action);
  const action = rawAction && /^[a-z_]{1,40}\.[a-z_]{1,40}$/.test(rawAction) ? rawAction : undefined;
  const actor = queryText(one(sp.actor));
  const before = safeWholeNumber(one(sp.before));
  const rows = await listAudit(access.db, { action, actorId: actor, beforeSeq: before, limit: 100 });
  const last = rows[rows.length - 1];
  const next = rows.length === 100 && last ? `/console/audit?${new URLSearchParams({ ...(action ? { action } : {}), ...(actor ? { actor } : {}), before: String(last.seq) })}` : null;
  const canExport = hasPermission(access.operator.roles, PERMISSIONS.auditExport);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">Append-only and hash-chained; names, keywords and hashes only.</p>
      <form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
        <label className="grid gap-1 text-sm">
          <span>Action (resource.verb)</span>
          <input name="action" defaultValue={action ?? ""} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
        </label>
        <label className="grid gap-1 text-sm">
          <span>Actor</span>
          <input name="actor" defaultValue={actor ?? ""} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
        </label>
        <button className="rounded border border-slate-500 px-3 py-1">Apply</button>
        {action || actor ? <Link className="underline" href="/console/audit">Clear filters</Link> : null}
      </form>
      <ScrollRegion label="Audit log entries" className="mt-4">
        <table className="w-full text-left text-sm" data-testid="audit-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              {["Seq", "Time", "Actor", "Action", "Target", "Detail", "Hash"].map((h) => (
                <th key={h} scope="col" className="px-2 py-1">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.seq} className="border-b border-slate-100 align-top dark:border-slate-900">
                <td className="px-2 py-1 tabular-nums">{e.seq}</td>
                <td className="px-2 py-1 font-mono text-xs">{e.ts.toISOString()}</td>
                <td className="px-2 py-1">{e.actorType} <span className="font-mono text-xs">{e.actorId}</span></td>
                <td className="px-2 py-1 font-mono text-xs">{e.action}</td>
                <td className="max-w-xs px-2 py-1 font-mono text-xs break-all">{e.targetType}:{e.targetId}</td>
                <td className="px-2 py-1 font-mono text-xs break-all">{JSON.stringify(e.detail)}</td>
                <td className="px-2 py-1 font-mono text-xs" title={e.hash}>{e.hash.slice(0, 12)}…</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {next ? (
        <p className="mt-2">
          <Link className="underline" href={next}>Older entries</Link>
        </p>
      ) : null}
      <div className="mt-8 grid gap-8 md:grid-cols-2">
        <section aria-labelledby="export-heading">
          <h2 id="export-heading" className="text-xl font-semibold">Export evidence</h2>
          <p className="text-sm">A tar of manifest.json (Ed25519-signed) and the data file, across all pages, streamed. Check it with <code>ctl audit verify</code> or below. The export is itself audited.</p>
          {canExport ? (
            <form method="get" action="/api/console/audit/export" className="mt-2 flex flex-wrap items-end gap-3" aria-label="Export evidence">
              <label className="grid gap-1 text-sm">
                <span>Format</span>
                <select name="format" className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900">
                  <option value="ndjson">NDJSON</option>
                  <option value="csv">CSV</option>
                </select>
              </label>
              <label className="grid gap-1 text-sm">
                <span>From (optional)</span>
                <input type="date" name="from" className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
              </label>
              <label className="grid gap-1 text-sm">
                <span>To (optional)</span>
                <input type="date" name="to" className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
              </label>
              <button className="rounded bg-blue-700 px-3 py-1 text-white">Download export</button>
            </form>
          ) : (
            <p className="mt-2 text-sm">Only auditors and admins export evidence.</p>
          )}
        </section>
        <section aria-labelledby="verify-heading">
          <h2 id="verify-heading" className="text-xl font-semibold">Verify an export</h2>
          {hasPermission(access.operator.roles, PERMISSIONS.auditVerify) ? <EvidenceVerifyForm /> : <p className="text-sm">Only auditors and admins verify evidence here.</p>}
        </section>
      </div>
    </main>
  );
}
