"use client";

import { useState } from "react";
import { Button } from "./ui/button";
import { Field } from "./ui/field";

type Report = { ok: true; count: number; keyFingerprint: string } | { ok: false; problem: string; count: number };

/**
 * Sends the evidence archive (.tar, exactly as downloaded) to the server as the request body; the
 * server verifies it as it streams in, offline (no database), and writes nothing to disk. The server
 * accepts only this deployment's signing key: an archive signed by any other is reported broken.
 */
export function EvidenceVerifyForm() {
  const [report, setReport] = useState<Report | { error: string } | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="grid max-w-xl gap-3"
      aria-label="Verify an evidence export"
      onSubmit={async (e) => {
        e.preventDefault();
        const file = new FormData(e.currentTarget).get("archive");
        if (!(file instanceof File)) return;
        setBusy(true);
        try {
          const res = await fetch("/api/console/audit/verify", {
            method: "POST",
            body: file,
            headers: { "content-type": "application/x-tar" },
          });
          const body = await res.json().catch(() => ({ ok: false, error: `the server answered ${res.status}` }));
          setReport(body.ok ? body.data : { error: body.error });
        } finally {
          setBusy(false);
        }
      }}
    >
      <Field label="Evidence archive (.tar, as downloaded)">
        <input type="file" name="archive" accept=".tar,application/x-tar" required />
      </Field>
      <Button disabled={busy} className="w-fit">
        Verify
      </Button>
      <p role="status" aria-live="polite" data-testid="verify-result">
        {report === null
          ? ""
          : "error" in report
            ? `Error: ${report.error}`
            : report.ok
              ? `Intact: ${report.count} entries, signed by this deployment's key ${report.keyFingerprint}.`
              : `Broken: ${report.problem}`}
      </p>
    </form>
  );
}
