"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { ActionResult } from "@/lib/auth/action-result";
import { EndSessionsForm } from "./end-sessions-form";
import { DataTable } from "./ui/data-table";

export interface OperatorRow {
  subject: string;
  displayName: string;
  disabled: boolean;
  roles: string[];
  lastSeenAt: Date | null;
  liveSessions: number;
}

type Result = ActionResult<{ ended: number }> | null;
interface Meta {
  self: string;
  endSessions: (prev: Result, form: FormData) => Promise<Result>;
}

const columns: ColumnDef<OperatorRow, unknown>[] = [
  { accessorKey: "subject", header: "Subject", meta: { className: "font-mono text-xs" } },
  { id: "name", header: "Name", cell: ({ row }) => `${row.original.displayName}${row.original.disabled ? " (disabled)" : ""}` },
  { id: "roles", header: "Roles", cell: ({ row }) => row.original.roles.join(", ") },
  {
    id: "lastSeen",
    header: "Last sign-in",
    cell: ({ row }) => row.original.lastSeenAt?.toISOString().slice(0, 16) ?? "-",
    meta: { className: "font-mono text-xs" },
  },
  {
    id: "live",
    header: "Live sessions",
    cell: ({ row }) => <span data-testid="live-sessions">{row.original.liveSessions}</span>,
    meta: { className: "tabular-nums" },
  },
  {
    id: "end",
    header: "End sessions",
    cell: ({ row, table }) => {
      const m = table.options.meta as Meta;
      return row.original.subject === m.self ? (
        <span className="text-xs">(you: use Sign out)</span>
      ) : (
        <EndSessionsForm subject={row.original.subject} action={m.endSessions} />
      );
    },
  },
];

/** Operators with roles and live sessions; "End sessions" for everyone but the viewer (who signs out). */
export function OperatorsTable({ rows, self, endSessions }: { rows: OperatorRow[] } & Meta) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => r.subject}
      label="Operators table"
      testId="operators-table"
      empty="No operator has signed in yet."
      rowData={(r) => ({ operator: r.subject })}
      meta={{ self, endSessions } satisfies Meta}
      className="mt-4"
    />
  );
}
