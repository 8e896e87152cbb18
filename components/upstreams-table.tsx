"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { ActionResult } from "@/lib/auth/action-result";
import { RemoveUpstreamForm } from "./upstream-forms";
import { DataTable } from "./ui/data-table";

export interface UpstreamRow {
  id: string;
  displayName: string;
  url: string;
  credential: string;
  tenants: string[];
  exposedTools: string[];
  urlOrigins: string[];
  reachable: boolean | null;
  /** The MCP revision the upstream was found to speak (unknown until first contact). */
  revision: string | null;
  tools: number | null;
  /** What the gateway cut from the upstream's tool list, in plain words (null: nothing). */
  toolsNotice: string | null;
  latencyMs: number | null;
  lastError: string | null;
  outcomes: Record<string, number>;
}

type Result = ActionResult<{ id: string }> | null;
interface Meta {
  remove?: (prev: Result, form: FormData) => Promise<Result>;
}

// The stored outcomes shown per upstream (`not_sent` covers blocked and fallback).
export const UPSTREAM_OUTCOMES = ["completed", "declined", "cancelled", "validation_failed", "not_sent", "failed", "timed_out"] as const;

const mono = { className: "font-mono text-xs" };
const num = { className: "tabular-nums" };

const columns: ColumnDef<UpstreamRow, unknown>[] = [
  { accessorKey: "id", header: "Id", meta: mono },
  { accessorKey: "displayName", header: "Name" },
  { accessorKey: "url", header: "URL", meta: mono },
  { accessorKey: "credential", header: "Credential", meta: { className: "text-xs" } },
  { id: "tenants", header: "Tenants", cell: ({ row }) => row.original.tenants.join(", "), meta: mono },
  { id: "tools", header: "Tools", cell: ({ row }) => row.original.exposedTools.join(", "), meta: mono },
  { id: "urlOrigins", header: "URL origins", cell: ({ row }) => row.original.urlOrigins.join(", ") || "-", meta: mono },
  {
    id: "reachable",
    header: "Reachable",
    cell: ({ row }) => (row.original.reachable === null ? "unknown" : row.original.reachable ? "yes" : "no"),
  },
  { id: "revision", header: "Revision", cell: ({ row }) => row.original.revision ?? "-", meta: mono },
  {
    id: "listed",
    header: "Tools listed",
    cell: ({ row }) =>
      row.original.tools === null
        ? "-"
        : row.original.toolsNotice
          ? `${row.original.tools} (${row.original.toolsNotice})`
          : row.original.tools,
    meta: { className: "text-xs tabular-nums" },
  },
  {
    id: "latency",
    header: "Latency",
    cell: ({ row }) => (row.original.latencyMs !== null ? `${row.original.latencyMs} ms` : "-"),
    meta: num,
  },
  { id: "lastError", header: "Last error", cell: ({ row }) => row.original.lastError ?? "-", meta: { className: "text-xs" } },
  ...UPSTREAM_OUTCOMES.map((s): ColumnDef<UpstreamRow, unknown> => ({
    id: `outcome-${s}`,
    header: s,
    cell: ({ row }) => row.original.outcomes[s] ?? 0,
    meta: num,
  })),
  {
    id: "action",
    header: "Action",
    cell: ({ row, table }) => {
      const { remove } = table.options.meta as Meta;
      return remove ? <RemoveUpstreamForm id={row.original.id} action={remove} /> : null;
    },
  },
];

/** The gateway's upstream servers: configuration, this instance's last contact, stored outcomes. */
export function UpstreamsTable({ rows, remove }: { rows: UpstreamRow[] } & Meta) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => r.id}
      label="Upstreams table"
      testId="upstreams-table"
      empty="No upstream server is configured."
      meta={{ remove } satisfies Meta}
      hiddenColumns={remove ? [] : ["action"]}
      className="mt-4"
    />
  );
}
