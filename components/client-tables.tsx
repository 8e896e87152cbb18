"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { ActionResult } from "@/lib/auth/action-result";
import { RemoveClientProfileForm } from "./client-profile-forms";
import { DataTable } from "./ui/data-table";

export interface ProfileRow {
  clientId: string;
  profileId: string;
  displayName: string;
  createdBy: string;
  disabledAt: Date | null;
}

export interface ObservedClientRow {
  name: string;
  version: string;
  revisions: string[];
  sessions: number;
  formSessions: number;
  urlSessions: number;
  noElicitationSessions: number;
  records: number;
  completed: number;
  fallbacks: number;
  lastSeen: Date;
}

type RemoveResult = ActionResult<{ clientId: string }> | null;

const share = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : "-");
const mono = { className: "font-mono text-xs" };
const num = { className: "tabular-nums" };

interface ProfilesMeta {
  remove?: (prev: RemoveResult, form: FormData) => Promise<RemoveResult>;
}

const profileColumns: ColumnDef<ProfileRow, unknown>[] = [
  { accessorKey: "clientId", header: "OAuth client id", meta: mono },
  { accessorKey: "profileId", header: "Profile", meta: mono },
  { accessorKey: "displayName", header: "Display name" },
  { accessorKey: "createdBy", header: "Mapped by", meta: { className: "text-xs" } },
  {
    id: "state",
    header: "State",
    cell: ({ row }) => (row.original.disabledAt ? `unmapped ${row.original.disabledAt.toISOString().slice(0, 16)}` : "active"),
    meta: { className: "text-xs" },
  },
  {
    id: "action",
    header: "Action",
    cell: ({ row, table }) => {
      const { remove } = table.options.meta as ProfilesMeta;
      return row.original.disabledAt || !remove ? null : <RemoveClientProfileForm clientId={row.original.clientId} action={remove} />;
    },
  },
];

/** Client id to profile mappings; the Action column only for those who may change them. */
export function ClientProfilesTable({ rows, remove }: { rows: ProfileRow[] } & ProfilesMeta) {
  return (
    <DataTable
      columns={profileColumns}
      rows={rows}
      getRowId={(r) => r.clientId}
      label="Client profiles table"
      testId="client-profiles-table"
      empty="No client is mapped to a profile yet."
      meta={{ remove } satisfies ProfilesMeta}
      hiddenColumns={remove ? [] : ["action"]}
      className="mt-2"
    />
  );
}

const observedColumns: ColumnDef<ObservedClientRow, unknown>[] = [
  { accessorKey: "name", header: "Client" },
  { accessorKey: "version", header: "Version", meta: mono },
  { id: "revisions", header: "Revisions", cell: ({ row }) => row.original.revisions.join(", "), meta: mono },
  { accessorKey: "sessions", header: "Sessions", meta: num },
  { id: "form", header: "Declared form", cell: ({ row }) => share(row.original.formSessions, row.original.sessions), meta: num },
  { id: "url", header: "Declared URL", cell: ({ row }) => share(row.original.urlSessions, row.original.sessions), meta: num },
  { id: "none", header: "No elicitation", cell: ({ row }) => share(row.original.noElicitationSessions, row.original.sessions), meta: num },
  { accessorKey: "records", header: "Records", meta: num },
  { id: "completed", header: "Completed", cell: ({ row }) => share(row.original.completed, row.original.records), meta: num },
  { accessorKey: "fallbacks", header: "Fallbacks", meta: num },
  { id: "lastSeen", header: "Last seen", cell: ({ row }) => row.original.lastSeen.toISOString().slice(0, 16), meta: mono },
];

/** What each client version declared and how its elicitations fared. */
export function ObservedClientsTable({ rows }: { rows: ObservedClientRow[] }) {
  return (
    <DataTable
      columns={observedColumns}
      rows={rows}
      getRowId={(r) => `${r.name}@${r.version}`}
      label="Clients table"
      testId="clients-table"
      empty="No client has connected yet."
      className="mt-4"
    />
  );
}
