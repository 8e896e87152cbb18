"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { ActionResult } from "@/lib/auth/action-result";
import { DomainHighlight } from "./domain-highlight";
import { DisableOriginForm } from "./origin-forms";
import { Badge } from "./ui/badge";
import { DataTable } from "./ui/data-table";

export interface OriginRow {
  id: string;
  origin: string;
  unicodeHost: string | null;
  verdict: "allow" | "warn" | "block";
  reasons: string[];
  redirectUris: string[];
  note: string | null;
  /** ISO date the origin was removed, or null while it is allowed. */
  removedOn: string | null;
}

type DisableResult = ActionResult<{ origin: string }> | null;

const VERDICT_TONE = { allow: "good", warn: "warn", block: "bad" } as const;

interface Meta {
  disable?: (prev: DisableResult, form: FormData) => Promise<DisableResult>;
}

const columns: ColumnDef<OriginRow, unknown>[] = [
  {
    id: "origin",
    header: "Origin",
    cell: ({ row }) => <DomainHighlight url={row.original.origin} unicodeHost={row.original.unicodeHost} />,
  },
  {
    id: "check",
    header: "URL check",
    cell: ({ row }) => (
      <>
        <Badge tone={VERDICT_TONE[row.original.verdict]}>{row.original.verdict}</Badge>
        {row.original.reasons.length ? (
          <p className="mt-1 text-xs text-amber-900 dark:text-amber-200">{row.original.reasons.join("; ")}</p>
        ) : null}
      </>
    ),
  },
  {
    id: "redirectUris",
    header: "Redirect URIs",
    cell: ({ row }) => (
      <ul>
        {row.original.redirectUris.map((u) => (
          <li key={u}>{u}</li>
        ))}
      </ul>
    ),
    meta: { className: "font-mono text-xs break-all" },
  },
  { id: "note", header: "Note", cell: ({ row }) => row.original.note ?? "", meta: { className: "text-xs" } },
  {
    id: "state",
    header: "State",
    cell: ({ row, table }) => {
      const { disable } = table.options.meta as Meta;
      return row.original.removedOn ? (
        <span className="text-xs">removed {row.original.removedOn}</span>
      ) : disable ? (
        <DisableOriginForm origin={row.original.origin} action={disable} />
      ) : (
        <span className="text-xs">allowed</span>
      );
    },
  },
];

/** The URL-mode allowlist: each origin with its URL check and exact redirect URIs. */
export function OriginsTable({ rows, disable }: { rows: OriginRow[] } & Meta) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => r.id}
      label="Origins table"
      testId="origins"
      empty="No origin is allowed yet."
      meta={{ disable } satisfies Meta}
      rowClassName={(r) => (r.removedOn ? "opacity-60" : "")}
      className="mt-4"
    />
  );
}
