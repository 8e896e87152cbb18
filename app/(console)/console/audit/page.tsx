import { AuditTable } from "@/components/audit-table";
import { EvidenceVerifyForm } from "@/components/evidence-verify-form";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FilterBar } from "@/components/ui/filter-bar";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { RefusedLine } from "@/components/ui/status-line";
import { AUDIT_PAGE_SIZE, auditPageQuery, listAudit } from "@/lib/audit/queries";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { describeRefusal, parseSearchParams } from "@/lib/http/search-params";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("audit");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const parsed = parseSearchParams(auditPageQuery, await searchParams);
  const { action, actor, before } = parsed.data;
  const rows = await listAudit(access.db, { action, actorId: actor, beforeSeq: before, limit: AUDIT_PAGE_SIZE });
  const last = rows[rows.length - 1];
  const url = { path: "/console/audit", params: { action, actor } };
  const entries = rows.map(({ seq, ts, actorType, actorId, action, targetType, targetId, detail, hash }) => ({
    seq,
    ts,
    actorType,
    actorId,
    action,
    targetType,
    targetId,
    detail,
    hash,
  }));
  const canExport = hasPermission(access.operator.roles, PERMISSIONS.auditExport);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">Append-only and hash-chained; names, keywords and hashes only.</p>
      {parsed.ok ? null : <RefusedLine message={describeRefusal(parsed.fieldErrors)} />}
      <div className="mt-4">
        <FilterBar
          url={url}
          label="Filter the audit log"
          clearLabel="Clear filters"
          filters={[
            { kind: "text", name: "action", label: "Action (resource.verb)", maxLength: 81 },
            { kind: "text", name: "actor", label: "Actor" },
          ]}
        />
      </div>
      <AuditTable
        rows={entries}
        url={url}
        paging={{
          param: "before",
          current: before === undefined ? undefined : String(before),
          next: rows.length === AUDIT_PAGE_SIZE && last ? String(last.seq) : null,
          nextLabel: "Older entries",
        }}
      />
      <div className="mt-8 grid gap-8 md:grid-cols-2">
        <section aria-labelledby="export-heading">
          <h2 id="export-heading" className="text-xl font-semibold">
            Export evidence
          </h2>
          <p className="text-sm">
            A tar of manifest.json (Ed25519-signed) and the data file, across all pages, streamed. Check it with{" "}
            <code>ctl audit verify</code> or below. The export is itself audited.
          </p>
          {canExport ? (
            <form
              method="get"
              action="/api/console/audit/export"
              className="mt-2 flex flex-wrap items-end gap-3"
              aria-label="Export evidence"
            >
              <Field label="Format">
                <Select
                  name="format"
                  options={[
                    { value: "ndjson", label: "NDJSON" },
                    { value: "csv", label: "CSV" },
                  ]}
                />
              </Field>
              <Field label="From (optional)">
                <Input type="date" name="from" />
              </Field>
              <Field label="To (optional)">
                <Input type="date" name="to" />
              </Field>
              <button className={buttonClass("primary")}>Download export</button>
            </form>
          ) : (
            <p className="mt-2 text-sm">Only auditors and admins export evidence.</p>
          )}
        </section>
        <section aria-labelledby="verify-heading">
          <h2 id="verify-heading" className="text-xl font-semibold">
            Verify an export
          </h2>
          {hasPermission(access.operator.roles, PERMISSIONS.auditVerify) ? (
            <EvidenceVerifyForm />
          ) : (
            <p className="text-sm">Only auditors and admins verify evidence here.</p>
          )}
        </section>
      </div>
    </main>
  );
}
