import { NextResponse } from "next/server";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requireOperator } from "@/lib/auth/require-operator";
import { refusedJson } from "@/lib/controls/route-handler";
import { sameOriginOnly } from "@/lib/auth/request-guard";
import { evidenceByHash } from "@/lib/gates/evidence";

export const dynamic = "force-dynamic";

// The signed evidence document of one gate run, as stored: the exact signed bytes, the signature
// and the signing key's fingerprint, so an auditor can check it against the audit export's key.
export const GET = sameOriginOnly("download", async (_req: Request, ctx: { params: Promise<{ hash: string }> }) => {
  const { hash } = await ctx.params;
  if (!/^[0-9a-f]{64}$/.test(hash)) return NextResponse.json({ ok: false, error: "not an evidence hash" }, { status: 400 });
  const guard = await requireOperator(PERMISSIONS.healthRead, { type: "gate_evidence", id: hash }, { view: true });
  if (!guard.ok) return refusedJson(guard);
  const row = await evidenceByHash(guard.db, hash);
  if (!row) return NextResponse.json({ ok: false, error: "no such evidence" }, { status: 404 });
  const body = JSON.stringify({
    sha256: row.hash,
    keyFingerprint: row.keyFingerprint,
    signature: row.signature,
    document: JSON.parse(row.document) as unknown,
    signedBytes: row.document,
  });
  return new Response(body, {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="gate-evidence-${hash.slice(0, 16)}.json"`,
      "cache-control": "no-store",
    },
  });
});
