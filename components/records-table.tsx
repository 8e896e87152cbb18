"use client";

import { ScrollRegion } from "./scroll-region";
import { flexRender, getCoreRowModel, useReactTable, type RowSelectionState } from "@tanstack/react-table";
import { useActionState, useMemo, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { getRecordColumns, type RecordRow } from "./records-columns";

type Result = ActionResult<{ revoked: number }> | null;

export function RecordsTable({ rows, revoke, canRevoke }: { rows: RecordRow[]; revoke: (prev: Result, form: FormData) => Promise<Result>; canRevoke: boolean }) {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const columns = useMemo(() => getRecordColumns(), []);
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (r) => r.id,
    state: { rowSelection: selection },
    onRowSelectionChange: setSelection,
    enableRowSelection: (row) => row.original.unfinished,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
  });
  const [result, action, pending] = useActionState(revoke, null);
  const selected = Object.keys(selection).filter((k) => selection[k]);
  return (
    <div>
      <form action={action} className="mb-3 flex flex-wrap items-end gap-3" aria-label="Revoke selected records">
        {selected.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <label className="grid gap-1 text-sm">
          <span>Reason for revoking</span>
          <input name="reason" required minLength={3} maxLength={200} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900" />
        </label>
        <button disabled={pending || selected.length === 0} className="rounded bg-red-700 px-3 py-1 text-white disabled:opacity-50">
          Revoke {selected.length} selected
        </button>
        {canRevoke ? null : <span className="text-sm">Your role cannot revoke; the server will refuse.</span>}
        <span role="status" aria-live="polite" data-testid="revoke-result" className={result && !result.ok ? "text-red-800 dark:text-red-300" : ""}>
          {result ? (result.ok ? `Revoked ${result.data.revoked}.` : `Refused: ${result.error}`) : ""}
        </span>
      </form>
      <ScrollRegion label="Records table">
        <table className="w-full text-left text-sm" data-testid="records-table">
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id} className="border-b border-slate-300 dark:border-slate-700">
                {hg.headers.map((h) => (
                  <th key={h.id} scope="col" className="px-2 py-1">
                    {h.isPlaceholder ? null : flexRender(h.column.columnDef.header, h.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className={`border-b border-slate-100 dark:border-slate-900 ${row.original.stuck ? "bg-amber-50 dark:bg-amber-950" : ""}`} data-state={row.original.state}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className="px-2 py-1">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="p-4">No records match these filters.</p> : null}
      </ScrollRegion>
    </div>
  );
}
