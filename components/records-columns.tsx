"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { Badge } from "./ui/badge";

export interface RecordRow {
  id: string;
  state: string;
  mode: string;
  toolName: string;
  flowId: string | null;
  client: string;
  routeDecision: string;
  createdAt: string;
  ageSeconds: number;
  stuck: boolean;
  unfinished: boolean;
}

function age(s: number): string {
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

export function getRecordColumns(): ColumnDef<RecordRow, unknown>[] {
  return [
    {
      id: "select",
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label="Select all unfinished records on this page"
          checked={table.getIsAllRowsSelected()}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          aria-label={`Select record ${row.original.id}`}
          disabled={!row.getCanSelect()}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    },
    {
      accessorKey: "id",
      header: "Record",
      cell: ({ row }) => (
        <Link className="font-mono text-xs text-blue-800 underline dark:text-blue-300" href={`/console/records/${row.original.id}`}>
          {row.original.id.slice(0, 12)}…
        </Link>
      ),
    },
    {
      accessorKey: "state",
      header: "State",
      cell: ({ row }) => (
        <span className="font-mono text-sm">
          {row.original.state}
          {row.original.stuck ? (
            <Badge tone="stuck" className="ml-2">
              stuck
            </Badge>
          ) : null}
        </span>
      ),
    },
    { accessorKey: "mode", header: "Mode" },
    { accessorKey: "toolName", header: "Tool" },
    { accessorKey: "client", header: "Client" },
    { accessorKey: "routeDecision", header: "Route" },
    {
      accessorKey: "ageSeconds",
      header: "Age",
      cell: ({ row }) => <span title={row.original.createdAt}>{age(row.original.ageSeconds)}</span>,
    },
  ];
}
