"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { GroupHealth as HealthRow } from "@/lib/metrics/overview";
import { DataTable } from "./ui/data-table";

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");
const secs = (s: number | null) => (s === null ? "-" : s < 120 ? `${s}s` : `${Math.round(s / 60)}m`);
const num = { className: "tabular-nums" };

function rate(id: string, header: string, of: (r: HealthRow) => number): ColumnDef<HealthRow, unknown> {
  return { id, header, cell: ({ row }) => pct(of(row.original), row.original.total), meta: num };
}

const columns: ColumnDef<HealthRow, unknown>[] = [
  { accessorKey: "group", header: ({ table }) => (table.options.meta as { by: string }).by, meta: { className: "font-mono text-xs" } },
  { accessorKey: "total", header: "Records", meta: num },
  rate("completed", "Completed", (r) => r.completed),
  rate("declined", "Declined", (r) => r.declined),
  rate("cancelled", "Cancelled by the person", (r) => r.cancelled),
  rate("clientDisconnected", "Client went away", (r) => r.clientDisconnected),
  rate("validationFailed", "Validation failed", (r) => r.validationFailed),
  rate("timedOut", "Timed out (nobody answered)", (r) => r.timedOut),
  { accessorKey: "preventedRepeats", header: "Prevented repeats", meta: num },
  { id: "p50", header: "Resume p50", cell: ({ row }) => secs(row.original.resumeP50s), meta: num },
  { id: "p95", header: "Resume p95", cell: ({ row }) => secs(row.original.resumeP95s), meta: num },
];

export function HealthTable({ rows, by }: { rows: HealthRow[]; by: string }) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => r.group}
      label="Health by group"
      testId="health-table"
      caption={`Outcome rates by ${by}`}
      meta={{ by }}
      empty="No records in this period."
    />
  );
}
