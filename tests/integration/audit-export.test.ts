// Acceptance: an export of 1,000,000 seeded entries verifies offline, and changing, deleting or
// swapping any one line, or editing the manifest, makes verify fail and name the place.
// AUDIT_EXPORT_ENTRIES lowers the size for a quick local run; CI uses the full million.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { exportAudit } from "@/lib/audit/export";
import type { Manifest } from "@/lib/audit/manifest";
import { loadSigner } from "@/lib/audit/signing";
import { verifyExport } from "@/lib/audit/verify-export";
import { appendAuditStream } from "@/lib/audit/writer";
import { copyEvidence } from "../helpers/tamper";
import { createTestStore, type TestStore } from "../helpers/test-store";

const ENTRIES = Number(process.env.AUDIT_EXPORT_ENTRIES ?? 1_000_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-audit-export-"));
const signer = loadSigner({ DATA_DIR: tmp });
let t: TestStore;
let manifest: Manifest;
let peakRssGrowth = 0;
const full = path.join(tmp, "full");

const DAY = 86_400_000;
const start = Date.now() - 30 * DAY;

beforeAll(async () => {
  t = await createTestStore();
  // Seed in transactions of 100k so neither store holds the whole million in one transaction.
  for (let done = 0; done < ENTRIES; done += 100_000) {
    const n = Math.min(100_000, ENTRIES - done);
    await t.store.db.transaction((tx) =>
      appendAuditStream(tx, n, (i) => ({
        at: new Date(start + ((done + i) * 30 * DAY) / ENTRIES),
        actorType: (done + i) % 7 === 0 ? "operator" : "system",
        actorId: `actor-${(done + i) % 13}`,
        action: (done + i) % 5 === 0 ? AUDIT_ACTIONS.recordRevoked : AUDIT_ACTIONS.killSwitchOn,
        targetType: "record",
        targetId: `r${done + i}`,
        detail: { n: done + i, fields: ["environment", "format"] },
      })),
    );
  }
  // With the embedded store the database lives in this process, and its WebAssembly memory grows
  // with the pages it reads: there, the JavaScript heap is what the exporter itself holds.
  const used = () => (t.store.kind === "pglite" ? process.memoryUsage().heapUsed : process.memoryUsage().rss);
  const before = used();
  const sampler = setInterval(() => (peakRssGrowth = Math.max(peakRssGrowth, used() - before)), 50);
  try {
    manifest = await exportAudit({ db: t.store.db, outDir: full, format: "ndjson", signer, actor: { type: "system", id: "test" } });
  } finally {
    clearInterval(sampler);
  }
}, 1_800_000);

afterAll(async () => {
  await t?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const at = (fraction: number) => Math.max(1, Math.min(ENTRIES - 1, Math.floor(ENTRIES * fraction)));

describe(`audit evidence export of ${ENTRIES.toLocaleString("en-US")} entries`, () => {
  it("exports every entry with a signed manifest and verifies offline", async () => {
    expect(manifest.count).toBe(ENTRIES);
    expect(manifest.firstSeq).toBe(1);
    expect(manifest.lastSeq).toBe(ENTRIES);
    expect(manifest.chainHead.seq).toBe(ENTRIES);
    const report = await verifyExport(full, { trustedFingerprint: signer.keyFingerprint });
    expect(report).toMatchObject({ ok: true, count: ENTRIES, keyTrust: "pinned" });
  });

  it("streams: memory does not grow with the size of the export", () => {
    const fileSize = fs.statSync(path.join(full, "audit.ndjson")).size;
    // Holding the export in memory would cost several times the file size; streaming stays flat.
    expect(peakRssGrowth).toBeLessThan(Math.max(160 * 1024 * 1024, fileSize / 2));
  });

  it("records the export itself in the audit log", async () => {
    const rows = await t.store.db.query.auditLog.findMany({ where: (a, { eq }) => eq(a.action, AUDIT_ACTIONS.auditExported) });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toMatchObject({ format: "ndjson", count: ENTRIES, key_fingerprint: signer.keyFingerprint });
  });

  it("names a changed line", async () => {
    const k = at(0.37);
    const dir = path.join(tmp, "changed");
    await copyEvidence(full, dir, "audit.ndjson", (n, line) => [
      n === k ? line.replace(`"targetId":"r${k - 1}"`, `"targetId":"r0"`) : line,
    ]);
    const report = await verifyExport(dir);
    expect(report).toMatchObject({ ok: false, line: k, seq: k });
    if (!report.ok) expect(report.problem).toMatch(new RegExp(`^line ${k}: entry ${k} was changed`));
  });

  it("names a removed line", async () => {
    const k = at(0.61);
    const dir = path.join(tmp, "removed");
    await copyEvidence(full, dir, "audit.ndjson", (n, line) => (n === k ? [] : [line]));
    const report = await verifyExport(dir);
    expect(report).toMatchObject({ ok: false, line: k });
    if (!report.ok) expect(report.problem).toMatch(new RegExp(`^line ${k}: expected seq ${k}, found ${k + 1}`));
  });

  it("names swapped lines", async () => {
    const k = at(0.83);
    const dir = path.join(tmp, "swapped");
    await copyEvidence(full, dir, "audit.ndjson", (n, line, next) => (n === k ? [next()!, line] : [line]));
    const report = await verifyExport(dir);
    expect(report).toMatchObject({ ok: false, line: k });
  });

  it("names a removed last line", async () => {
    const dir = path.join(tmp, "truncated");
    await copyEvidence(full, dir, "audit.ndjson", (n, line) => (n === ENTRIES ? [] : [line]));
    const report = await verifyExport(dir);
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.problem).toMatch(/manifest says/);
  });

  it("detects an edited manifest and a foreign signing key", async () => {
    const dir = path.join(tmp, "manifest-edited");
    await copyEvidence(full, dir, "audit.ndjson");
    const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ ...m, filter: { from: "2020-01-01T00:00:00.000Z", to: null } }));
    const report = await verifyExport(dir);
    expect(report).toMatchObject({ ok: false, problem: expect.stringMatching(/signature does not match/) });
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(m));
    expect(await verifyExport(dir, { trustedFingerprint: "sha256:" + "0".repeat(64) })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not the trusted key/),
    });
  });
});
