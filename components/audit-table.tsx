"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { DataTable, type TablePaging } from "./ui/data-table";
import type { TableUrl } from "./ui/table-url";

export interface AuditRow {
  seq: number;
  ts: Date;
  actorType: string;
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  detail: unknown;
  hash: string;
}

const columns: ColumnDef<AuditRow, unknown>[] = [
  { accessorKey: "seq", header: "Seq", meta: { className: "tabular-nums" } },
  { id: "time", header: "Time", cell: ({ row }) => row.original.ts.toISOString(), meta: { className: "font-mono text-xs" } },
  {
    id: "actor",
    header: "Actor",
    cell: ({ row }) => (
      <>
        {row.original.actorType} <span className="font-mono text-xs">{row.original.actorId}</span>
      </>
    ),
  },
  { accessorKey: "action", header: "Action", meta: { className: "font-mono text-xs" } },
  {
    id: "target",
    header: "Target",
    cell: ({ row }) => `${row.original.targetType}:${row.original.targetId}`,
    meta: { className: "max-w-xs font-mono text-xs break-all" },
  },
  {
    id: "detail",
    header: "Detail",
    cell: ({ row }) => JSON.stringify(row.original.detail),
    meta: { className: "font-mono text-xs break-all" },
  },
  {
    id: "hash",
    header: "Hash",
    cell: ({ row }) => <span title={row.original.hash}>{row.original.hash.slice(0, 12)}…</span>,
    meta: { className: "font-mono text-xs" },
  },
];

/** The audit log, newest first, one keyset page (entries before a sequence number) at a time. */
export function AuditTable({ rows, url, paging }: { rows: AuditRow[]; url: TableUrl; paging: TablePaging }) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => String(r.seq)}
      label="Audit log entries"
      testId="audit-table"
      empty="No audit entries match these filters."
      url={url}
      paging={paging}
      className="mt-4"
    />
  );
}
