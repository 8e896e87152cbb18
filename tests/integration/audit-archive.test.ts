// The evidence archive (.tar, lib/audit/archive-format.ts): written as a stream by the same code
// for the console and `ctl audit export --tar`, verified in one pass without extracting it, and
// checkable with standard tools (openssl, sha256sum, a Python script) after extracting it.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { exportArchive, writeArchive } from "@/lib/audit/export-archive";
import { canonicalize } from "@/lib/audit/canonical";
import { signedPayload, type Manifest } from "@/lib/audit/manifest";
import { loadSigner } from "@/lib/audit/signing";
import { EvidenceFormatError, verifyArchive } from "@/lib/audit/verify-archive";
import { verifyExport } from "@/lib/audit/verify-export";
import { appendAuditStream } from "@/lib/audit/writer";
import { readTar, retar } from "../helpers/evidence-tar";
import { createTestStore, type TestStore } from "../helpers/test-store";

// Enough entries for several 1 MiB parts, so every check crosses part boundaries.
const ENTRIES = 6000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-audit-archive-"));
const signer = loadSigner({ DATA_DIR: tmp });
const other = loadSigner({ DATA_DIR: path.join(tmp, "other-key") });
const archive = path.join(tmp, "evidence.tar");
const root = path.resolve(import.meta.dirname, "../..");
let t: TestStore;
let manifest: Manifest;

beforeAll(async () => {
  t = await createTestStore();
  await t.store.db.transaction((tx) =>
    appendAuditStream(tx, ENTRIES, (i) => ({
      actorType: i % 7 === 0 ? "operator" : "system",
      actorId: `actor-${i % 13}`,
      action: i % 5 === 0 ? AUDIT_ACTIONS.recordRevoked : AUDIT_ACTIONS.killSwitchOn,
      targetType: "record",
      // Awkward but legal text: non-ASCII, astral, quotes, U+2028, a float in the detail.
      targetId: i % 11 === 0 ? `r${i} "Україна" 😀 \u2028 é` : `r${i}`,
      detail: { n: i, ratio: i / 7, fields: ["environment", "format"], flag: i % 2 === 0, none: null },
    })),
  );
  manifest = await writeArchive({ db: t.store.db, format: "ndjson", signer, actor: { type: "system", id: "test" } }, archive);
}, 300_000);

afterAll(async () => {
  await t?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const verifyFile = (file: string, fingerprint?: string) =>
  verifyArchive(fs.createReadStream(file), { maxBytes: Number.MAX_SAFE_INTEGER, trustedFingerprint: fingerprint });

function extract(file: string): string {
  const dir = fs.mkdtempSync(path.join(tmp, "x-"));
  execFileSync("tar", ["-xf", file, "-C", dir]);
  return dir;
}

const parts = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((n) => /^audit\.ndjson\.\d{6}$/.test(n))
    .sort();

describe("evidence archive", () => {
  it("holds the data parts first, then the manifest, its detached signature and the key", async () => {
    const names = (await readTar(archive)).map((e) => e.name);
    expect(names.length).toBeGreaterThan(4);
    expect(names.slice(-3)).toEqual(["manifest.json", "manifest.json.sig", "signer.pub.pem"]);
    expect(names.slice(0, -3)).toEqual(names.slice(0, -3).map((_, i) => `audit.ndjson.${String(i + 1).padStart(6, "0")}`));
    expect(manifest.count).toBe(ENTRIES);
  });

  it("verifies in one pass from the stream, pinned to the key", async () => {
    expect(await verifyFile(archive, signer.keyFingerprint)).toMatchObject({
      ok: true,
      count: ENTRIES,
      firstSeq: 1,
      lastSeq: ENTRIES,
      keyTrust: "pinned",
    });
    expect(await verifyFile(archive, other.keyFingerprint)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not the trusted key/),
    });
  });

  it("the console stream and the file are the same archive format, and the export is audited", async () => {
    const { stream, done } = exportArchive({ db: t.store.db, format: "ndjson", signer, actor: { type: "operator", id: "op-1" } });
    const report = await verifyArchive(stream, { maxBytes: Number.MAX_SAFE_INTEGER });
    // The first export's own audit entry is part of the second one.
    expect(report).toMatchObject({ ok: true, count: ENTRIES + 1 });
    expect((await done).count).toBe(ENTRIES + 1);
    const rows = await t.store.db.query.auditLog.findMany({ where: (a, { eq }) => eq(a.action, AUDIT_ACTIONS.auditExported) });
    expect(rows.map((r) => r.actorId).slice(0, 2)).toEqual(["test", "op-1"]);
  });

  it("streams: the first part leaves before the export is complete, the manifest only at the end", async () => {
    const { stream, done } = exportArchive({ db: t.store.db, format: "ndjson", signer, actor: { type: "operator", id: "op-2" } });
    let settled = false;
    void done.then(
      () => (settled = true),
      () => (settled = true),
    );
    const it = stream[Symbol.asyncIterator]();
    const first = (await it.next()).value as Buffer;
    // Nothing more is read, so back-pressure holds the export: it cannot have finished yet.
    expect(first.subarray(0, 19).toString()).toBe("audit.ndjson.000001");
    expect(settled).toBe(false);
    const rest: Buffer[] = [first];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value as Buffer);
    expect((await done).count).toBeGreaterThan(ENTRIES);
    expect(await verifyArchive(Readable.from([Buffer.concat(rest)]), { maxBytes: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: true });
  });

  it("exports a time range: exactly the entries in it, a contiguous run that verifies", async () => {
    const rows = await t.store.db.query.auditLog.findMany({
      where: (a, { inArray }) => inArray(a.seq, [1001, 2001]),
      orderBy: (a, { asc }) => asc(a.seq),
    });
    const [from, to] = [rows[0]!.ts, rows[1]!.ts];
    const expected = await t.store.db.query.auditLog.findMany({
      where: (a, { and, gte, lt }) => and(gte(a.ts, from), lt(a.ts, to)),
      columns: { seq: true },
    });
    const { stream, done } = exportArchive({ db: t.store.db, format: "ndjson", from, to, signer, actor: { type: "operator", id: "op-3" } });
    const report = await verifyArchive(stream, { maxBytes: Number.MAX_SAFE_INTEGER });
    const m = await done;
    expect(expected.length).toBeGreaterThan(0);
    expect(report).toMatchObject({
      ok: true,
      count: expected.length,
      firstSeq: Math.min(...expected.map((e) => e.seq)),
      lastSeq: Math.max(...expected.map((e) => e.seq)),
    });
    expect(m.filter).toEqual({ from: from.toISOString(), to: to.toISOString() });
  });

  it("extracted, checks with openssl and sha256sum alone", () => {
    const dir = extract(archive);
    const verified = spawnSync(
      "openssl",
      ["pkeyutl", "-verify", "-pubin", "-inkey", "signer.pub.pem", "-rawin", "-in", "manifest.json", "-sigfile", "manifest.json.sig"],
      { cwd: dir, encoding: "utf8" },
    );
    expect(verified.stdout).toMatch(/Signature Verified Successfully/);
    expect(verified.status).toBe(0);
    const sum = execFileSync("sh", ["-c", "cat audit.ndjson.* | sha256sum"], { cwd: dir, encoding: "utf8" }).split(" ")[0];
    expect(sum).toBe(JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")).fileSha256);
    // One byte of the manifest changed: openssl refuses it.
    const m = fs.readFileSync(path.join(dir, "manifest.json"), "utf8");
    fs.writeFileSync(path.join(dir, "manifest.json"), m.replace(`"count": ${ENTRIES}`, `"count": ${ENTRIES - 1}`));
    const refused = spawnSync(
      "openssl",
      ["pkeyutl", "-verify", "-pubin", "-inkey", "signer.pub.pem", "-rawin", "-in", "manifest.json", "-sigfile", "manifest.json.sig"],
      { cwd: dir, encoding: "utf8" },
    );
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/Signature Verification Failure/);
  });

  it("the Python script re-checks the chain of a good export and names a tampered line", () => {
    const dir = extract(archive);
    const data = path.join(dir, "audit.ndjson");
    execFileSync("sh", ["-c", "cat audit.ndjson.* > audit.ndjson"], { cwd: dir });
    const good = spawnSync("python3", [path.join(root, "docs/verify-chain.py"), data], { encoding: "utf8" });
    expect(good.stderr).toBe("");
    expect(good.stdout).toMatch(new RegExp(`^OK: ${ENTRIES} entries, chain intact, last hash ${manifest.lastHash}`));
    const viaStdin = spawnSync("sh", ["-c", `cat audit.ndjson.* | python3 ${path.join(root, "docs/verify-chain.py")} -`], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(viaStdin.stdout).toMatch(/^OK: /);
    const original = fs.readFileSync(data, "utf8");
    const lines = original.split("\n");
    lines[99] = lines[99]!.replace('"actorId":"actor-', '"actorId":"actor-x');
    fs.writeFileSync(data, lines.join("\n"));
    const bad = spawnSync("python3", [path.join(root, "docs/verify-chain.py"), data], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^line 100: entry 100 was changed/);
    // Reordered lines break the link.
    const swapped = original.split("\n");
    [swapped[200], swapped[201]] = [swapped[201]!, swapped[200]!];
    fs.writeFileSync(data, swapped.join("\n"));
    const reordered = spawnSync("python3", [path.join(root, "docs/verify-chain.py"), data], { encoding: "utf8" });
    expect(reordered.status).toBe(1);
    expect(reordered.stderr).toMatch(/^line 201: entry 202 does not link/);
  });

  it("an extracted archive verifies as a directory too", async () => {
    const dir = extract(archive);
    expect(parts(dir).length).toBeGreaterThan(1);
    expect(await verifyExport(dir)).toMatchObject({ ok: true, count: ENTRIES });
  });
});

describe("tampered archives", () => {
  const tampered = async (name: string, edit: Parameters<typeof retar>[2]) => {
    const file = path.join(tmp, `${name}.tar`);
    await retar(archive, file, edit);
    return verifyFile(file);
  };

  it("a copy without changes still verifies (the rewriting itself is sound)", async () => {
    expect(await tampered("same", {})).toMatchObject({ ok: true, count: ENTRIES });
  });

  it("names a changed line", async () => {
    const report = await tampered("changed", {
      line: (n, l) => [n === 4321 ? l.replace('"targetType":"record"', '"targetType":"recorx"') : l],
    });
    expect(report).toMatchObject({
      ok: false,
      line: 4321,
      seq: 4321,
      problem: expect.stringMatching(/^line 4321: entry 4321 was changed/),
    });
  });

  it("names a removed line", async () => {
    const report = await tampered("removed", { line: (n, l) => (n === 3000 ? [] : [l]) });
    expect(report).toMatchObject({ ok: false, line: 3000, problem: expect.stringMatching(/^line 3000: expected seq 3000, found 3001/) });
  });

  it("names reordered lines", async () => {
    const report = await tampered("reordered", { line: (n, l, next) => (n === 5000 ? [next()!, l] : [l]) });
    expect(report).toMatchObject({ ok: false, line: 5000, problem: expect.stringMatching(/^line 5000: expected seq 5000, found 5001/) });
  });

  it("refuses an appended line (a copy of the last, or a well-formed new entry)", async () => {
    const dup = await tampered("appended-dup", { line: (n, l) => (n === ENTRIES ? [l, l] : [l]) });
    expect(dup).toMatchObject({ ok: false, line: ENTRIES + 1 });
    // A new entry that links correctly: only the signed manifest can tell.
    const appended = await tampered("appended-linked", {
      line: (n, l) => {
        if (n !== ENTRIES) return [l];
        const { hash, ...prev } = JSON.parse(l);
        return [l, lineFor({ ...prev, seq: prev.seq + 1, prevHash: hash, targetId: "extra" })];
      },
    });
    expect(appended).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/holds 6001 entries but the manifest says 6000 \(entries added\)/),
    });
  });

  it("refuses a removed last line and a removed first line", async () => {
    expect(await tampered("no-last", { line: (n, l) => (n === ENTRIES ? [] : [l]) })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/manifest says 6000 \(entries removed at the end\)/),
    });
    expect(await tampered("no-first", { line: (n, l) => (n === 1 ? [] : [l]) })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/manifest says/),
    });
  });

  it("refuses a swapped signature: in the manifest, in manifest.json.sig, or a whole other signer", async () => {
    const manifestOf = (b: Buffer) => JSON.parse(b.toString("utf8"));
    const inManifest = await tampered("sig-field", {
      tail: (name, b) =>
        name === "manifest.json" ? Buffer.from(JSON.stringify({ ...manifestOf(b), signature: other.sign("x") }, null, 2) + "\n") : b,
    });
    expect(inManifest).toMatchObject({ ok: false, problem: expect.stringMatching(/signature does not match/) });
    const detached = await tampered("sig-file", {
      tail: (name, b) => (name === "manifest.json.sig" ? Buffer.from(other.sign(b), "base64") : b),
    });
    expect(detached).toMatchObject({ ok: false, problem: "manifest.json.sig does not match manifest.json" });
    // Re-signed by another key throughout: consistent, but not the pinned key.
    const resigned = path.join(tmp, "resigned.tar");
    await retar(archive, resigned, {
      tail: (name, b) => {
        if (name === "manifest.json") {
          const { signature: _s, ...rest } = manifestOf(b);
          void _s;
          const unsigned = { ...rest, signer: { algorithm: "Ed25519", keyFingerprint: other.keyFingerprint, publicKey: other.publicKey } };
          resignedManifest = Buffer.from(JSON.stringify({ ...unsigned, signature: other.sign(signedPayload(unsigned)) }, null, 2) + "\n");
          return resignedManifest;
        }
        if (name === "manifest.json.sig") return Buffer.from(other.sign(resignedManifest!), "base64");
        return Buffer.from(pemOf(other.publicKey));
      },
    });
    expect(await verifyFile(resigned)).toMatchObject({ ok: true, keyFingerprint: other.keyFingerprint, keyTrust: "embedded" });
    expect(await verifyFile(resigned, signer.keyFingerprint)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not the trusted key/),
    });
  });

  it("refuses an edited manifest", async () => {
    const edited = await tampered("manifest-edited", {
      tail: (name, b) =>
        name === "manifest.json" ? Buffer.from(b.toString("utf8").replace('"from": null', '"from": "2020-01-01T00:00:00.000Z"')) : b,
    });
    expect(edited).toMatchObject({ ok: false, problem: expect.stringMatching(/signature does not match/) });
  });

  it("refuses a truncated archive, wherever it is cut", async () => {
    const bytes = fs.readFileSync(archive);
    for (const cut of [100, 512 * 3 + 7, Math.floor(bytes.length / 2), bytes.length - 2048 - 700, bytes.length - 1024 - 512 - 3]) {
      const file = path.join(tmp, `cut-${cut}.tar`);
      fs.writeFileSync(file, bytes.subarray(0, cut));
      await expect(verifyFile(file), `cut at ${cut}`).rejects.toThrow(EvidenceFormatError);
    }
  });
});

let resignedManifest: Buffer | undefined;

function pemOf(spkiBase64: string): string {
  return createPublicKey({ key: Buffer.from(spkiBase64, "base64"), format: "der", type: "spki" })
    .export({ format: "pem", type: "spki" })
    .toString();
}

function lineFor(body: Record<string, unknown>): string {
  const hash = createHash("sha256").update(canonicalize(body)).digest("hex");
  return canonicalize({ ...body, hash });
}
