"use client";

import type { RowSelectionState } from "@tanstack/react-table";
import { useActionState, useMemo, useState } from "react";
import type { ActionResult } from "@/lib/auth/action-result";
import { getRecordColumns, type RecordRow } from "./records-columns";
import { buttonClass } from "./ui/button";
import { DataTable, type TablePaging, type TableSort } from "./ui/data-table";
import { Field } from "./ui/field";
import { Input } from "./ui/input";
import { StatusLine } from "./ui/status-line";
import type { TableUrl } from "./ui/table-url";

type Result = ActionResult<{ revoked: number }> | null;

export function RecordsTable({
  rows,
  revoke,
  canRevoke,
  url,
  sort,
  paging,
}: {
  rows: RecordRow[];
  revoke: (prev: Result, form: FormData) => Promise<Result>;
  canRevoke: boolean;
  url: TableUrl;
  sort: TableSort;
  paging: TablePaging;
}) {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const columns = useMemo(() => getRecordColumns(), []);
  const [result, action, pending] = useActionState(revoke, null);
  const selected = Object.keys(selection).filter((k) => selection[k]);
  return (
    <div>
      <form action={action} className="mb-3 flex flex-wrap items-end gap-3" aria-label="Revoke selected records">
        {selected.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <Field label="Reason for revoking">
          <Input name="reason" required minLength={3} maxLength={200} />
        </Field>
        <button disabled={pending || selected.length === 0} className={buttonClass("danger")}>
          Revoke {selected.length} selected
        </button>
        {canRevoke ? null : <span className="text-sm">Your role cannot revoke; the server will refuse.</span>}
        <StatusLine as="span" testId="revoke-result" result={result} done={(d) => `Revoked ${d.revoked}.`} />
      </form>
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        label="Records table"
        testId="records-table"
        empty="No records match these filters."
        url={url}
        sort={sort}
        paging={paging}
        rowData={(r) => ({ state: r.state })}
        rowClassName={(r) => (r.stuck ? "bg-amber-50 dark:bg-amber-950" : "")}
        selection={{ state: selection, onChange: setSelection, canSelect: (row) => row.original.unfinished }}
      />
    </div>
  );
}
