"use client";

import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type Row,
  type RowData,
  type RowSelectionState,
} from "@tanstack/react-table";
import Link from "next/link";
import { ScrollRegion } from "../scroll-region";
import { tableHref, type TableUrl } from "./table-url";

// The console's one data table. The server does the work: rows arrive already filtered, sorted and
// cut to one keyset page (every page costs the same at any depth, see docs/PERFORMANCE.md), and all
// of that state lives in the URL, so every view is a link. This component only renders: headers
// (a sortable header is a link that flips the order), rows, and the pager.
//
// Column definitions must be stable (module level or memoised): flexRender renders a cell function
// as a React component, so a column array rebuilt on every render remounts every cell and loses
// the state inside it (a form's "Refused:" line). What a cell needs from the page (a server action,
// the viewer's subject) comes through `meta`, which cells read as table.options.meta.

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's cells (e.g. "font-mono text-xs", "tabular-nums"). */
    className?: string;
  }
}

/** Server-side sorting: which URL value each sortable column maps to, per direction. */
export interface TableSort {
  param: string;
  current: string;
  columns: Readonly<Record<string, { asc: string; desc: string }>>;
}

/** Keyset paging: the cursor parameter, the current cursor and the next page's (null at the end). */
export interface TablePaging {
  param: string;
  current?: string;
  next: string | null;
  nextLabel?: string;
}

export interface DataTableProps<T> {
  columns: ColumnDef<T, unknown>[];
  rows: T[];
  getRowId: (row: T) => string;
  label: string;
  testId: string;
  empty: string;
  url?: TableUrl;
  sort?: TableSort;
  paging?: TablePaging;
  rowClassName?: (row: T) => string;
  /** data-* attributes of a row (e.g. { state } becomes data-state), for tests and styling hooks. */
  rowData?: (row: T) => Readonly<Record<string, string>>;
  /** A caption for screen readers (visually hidden). */
  caption?: string;
  /** Values the cells read from table.options.meta (server actions, the viewer's subject...). */
  meta?: object;
  /** Columns not shown (e.g. an Action column for a role that cannot act). */
  hiddenColumns?: readonly string[];
  selection?: { state: RowSelectionState; onChange: OnChangeFn<RowSelectionState>; canSelect: (row: Row<T>) => boolean };
  className?: string;
}

function dataAttributes(data: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, v]));
}

export function DataTable<T>({
  columns,
  rows,
  getRowId,
  label,
  testId,
  empty,
  url,
  sort,
  paging,
  rowClassName,
  rowData,
  caption,
  meta,
  hiddenColumns = [],
  selection,
  className = "",
}: DataTableProps<T>) {
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    meta,
    state: {
      columnVisibility: Object.fromEntries(hiddenColumns.map((id) => [id, false])),
      ...(selection ? { rowSelection: selection.state } : {}),
    },
    onRowSelectionChange: selection?.onChange,
    enableRowSelection: selection?.canSelect ?? false,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
  });
  return (
    <>
      <ScrollRegion label={label} className={className}>
        <table className="w-full text-left text-sm" data-testid={testId}>
          {caption ? <caption className="sr-only">{caption}</caption> : null}
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id} className="border-b border-slate-300 dark:border-slate-700">
                {hg.headers.map((h) => {
                  const sortable = sort && url ? sort.columns[h.column.id] : undefined;
                  const direction = sortable
                    ? sort?.current === sortable.asc
                      ? "ascending"
                      : sort?.current === sortable.desc
                        ? "descending"
                        : undefined
                    : undefined;
                  const content = h.isPlaceholder ? null : flexRender(h.column.columnDef.header, h.getContext());
                  return (
                    <th key={h.id} scope="col" className="px-2 py-1" aria-sort={direction}>
                      {sortable && url && sort ? (
                        <Link
                          className="underline"
                          href={tableHref(url, { [sort.param]: direction === "descending" ? sortable.asc : sortable.desc })}
                        >
                          {content}
                          <span aria-hidden="true">{direction === "descending" ? " ↓" : direction === "ascending" ? " ↑" : ""}</span>
                        </Link>
                      ) : (
                        content
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                className={`border-b border-slate-100 align-top dark:border-slate-900 ${rowClassName?.(row.original) ?? ""}`}
                {...dataAttributes(rowData?.(row.original))}
              >
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`px-2 py-1 ${cell.column.columnDef.meta?.className ?? ""}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="p-4">{empty}</p> : null}
      </ScrollRegion>
      {paging && url ? (
        <nav aria-label="Pages" className="mt-3 flex gap-4">
          {paging.current ? (
            <Link className="underline" href={tableHref(url, { [paging.param]: undefined })}>
              First page
            </Link>
          ) : null}
          {paging.next ? (
            <Link className="underline" href={tableHref(url, { [paging.param]: paging.next })} data-testid="next-page">
              {paging.nextLabel ?? "Next page"}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
