"use client";

import { useState } from "react";

type Report = { ok: true; count: number; keyFingerprint: string } | { ok: false; problem: string; count: number };

/** Uploads an export's two files to the server, which verifies them offline (no database). */
export function EvidenceVerifyForm() {
  const [report, setReport] = useState<Report | { error: string } | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="grid max-w-xl gap-3"
      aria-label="Verify an evidence export"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          const res = await fetch("/api/console/audit/verify", { method: "POST", body: new FormData(e.currentTarget) });
          const body = await res.json();
          setReport(body.ok ? body.data : { error: body.error });
        } finally {
          setBusy(false);
        }
      }}
    >
      <label className="grid gap-1 text-sm">
        <span>manifest.json</span>
        <input type="file" name="manifest" accept="application/json,.json" required />
      </label>
      <label className="grid gap-1 text-sm">
        <span>Data file (audit.ndjson or audit.csv)</span>
        <input type="file" name="data" required />
      </label>
      <button disabled={busy} className="w-fit rounded border border-slate-500 px-3 py-1">
        Verify
      </button>
      <p role="status" aria-live="polite" data-testid="verify-result">
        {report === null ? "" : "error" in report ? `Error: ${report.error}` : report.ok ? `Intact: ${report.count} entries, signed by ${report.keyFingerprint}.` : `Broken: ${report.problem}`}
      </p>
    </form>
  );
}
