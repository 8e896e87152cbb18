// The console's verify upload (lib/audit/verify-upload.ts) over real HTTP: the body is the .tar as
// downloaded, verified while it streams in. An attacker's archive never names a file on disk, a
// body over the cap is cut at the cap whatever it declares, and everything that is not an evidence
// archive gets a clear 400. Every outcome is audited, without names or bytes from the upload.
import { spawn } from "node:child_process";
import http from "node:http";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { computeHash, entryLine, GENESIS_HASH, type AuditEntry } from "@/lib/audit/canonical";
import { writeArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import { verifyUpload, verifyUploadLimit } from "@/lib/audit/verify-upload";
import { appendAuditStream } from "@/lib/audit/writer";
import { packTar, readTar, type TarItem } from "../helpers/evidence-tar";
import { createTestStore, type TestStore } from "../helpers/test-store";

const CAP = 100 * 1024 * 1024;
const keys = fs.mkdtempSync(path.join(os.tmpdir(), "eg-upload-keys-"));
const signer = loadSigner({ DATA_DIR: keys });
const privateTmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-upload-tmpdir-"));
const originalTmpdir = process.env.TMPDIR;
const root = path.resolve(import.meta.dirname, "../..");
let t: TestStore;
let server: http.Server;
let base: string;
let good: Buffer;
let goodItems: { name: string; body: Buffer }[];

beforeAll(async () => {
  t = await createTestStore();
  await t.store.db.transaction((tx) =>
    appendAuditStream(tx, 50, (i) => ({
      actorType: "system",
      actorId: "seed",
      action: AUDIT_ACTIONS.killSwitchOn,
      targetType: "record",
      targetId: `r${i}`,
      detail: { n: i },
    })),
  );
  const file = path.join(keys, "good.tar");
  await writeArchive({ db: t.store.db, format: "ndjson", signer, actor: { type: "system", id: "test" } }, file);
  good = fs.readFileSync(file);
  goodItems = await readTar(good);
  // The handler under test, behind a plain HTTP server (the route adds only sign-in and the role check).
  server = http.createServer(async (req, res) => {
    const out = await verifyUpload(
      t.store.db,
      "op-auditor",
      { contentType: req.headers["content-type"] ?? null, contentLength: req.headers["content-length"] ?? null, body: req },
      { maxBytes: CAP, trustedFingerprint: signer.keyFingerprint },
    );
    // Node discards whatever of the body was not read, as it does for the route.
    res.writeHead(out.status, { "content-type": "application/json" });
    res.end(JSON.stringify(out.body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // From here on, anything the verification wrote to a temporary directory would land here.
  process.env.TMPDIR = privateTmp;
}, 120_000);

afterAll(async () => {
  process.env.TMPDIR = originalTmpdir;
  server?.close();
  await t?.dispose();
  fs.rmSync(keys, { recursive: true, force: true });
  fs.rmSync(privateTmp, { recursive: true, force: true });
});

async function post(
  body: Buffer | string,
  contentType = "application/x-tar",
): Promise<{ status: number; json: { ok: boolean; error?: string; data?: Record<string, unknown> } }> {
  const res = await fetch(`${base}/verify`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: res.status, json: await res.json() };
}

const auditRows = () =>
  t.store.db.query.auditLog.findMany({
    where: (a, { eq }) => eq(a.action, AUDIT_ACTIONS.auditVerified),
    orderBy: (a, { asc }) => asc(a.seq),
  });

function listTree(dir: string): string[] {
  // tsx (which runs the server process in one test) keeps its compile cache there: not ours.
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((n) => !n.startsWith("tsx-"))
    .sort();
}

/** The good archive with the data parts and tail replaced or extended. */
const withItems = (edit: (items: TarItem[]) => TarItem[]) => packTar(edit(goodItems.map((i) => ({ name: i.name, body: i.body }))));

describe("verify upload over HTTP", () => {
  it("verifies the archive as downloaded, and audits it", async () => {
    const before = (await auditRows()).length;
    const r = await post(good);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true, data: { ok: true, count: 50 } });
    const rows = await auditRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ actorId: "op-auditor", detail: { ok: true, outcome: "verified", count: 50 } });
  });

  it("reports tampering as a failed verification (200, ok:false), audited", async () => {
    const tampered = await withItems((items) =>
      items.map((i) =>
        i.name === "audit.ndjson.000001" ? { ...i, body: i.body!.toString().replace('"targetId":"r7"', '"targetId":"r8"') } : i,
      ),
    );
    const r = await post(tampered);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ ok: false, problem: expect.stringMatching(/^line 8: entry 8 was changed/) });
    expect((await auditRows()).at(-1)).toMatchObject({ detail: { ok: false, outcome: "failed" } });
  });

  it("reports an archive signed by any key but the deployment's as broken, however consistent (red team F5)", async () => {
    const stranger = loadSigner({ DATA_DIR: path.join(keys, "stranger") });
    const file = path.join(keys, "stranger.tar");
    await writeArchive({ db: t.store.db, format: "ndjson", signer: stranger, actor: { type: "system", id: "test" } }, file);
    const r = await post(fs.readFileSync(file));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({
      ok: false,
      problem: `signed by ${stranger.keyFingerprint}, not the trusted key ${signer.keyFingerprint}`,
    });
    expect((await auditRows()).at(-1)).toMatchObject({ detail: { ok: false, outcome: "failed" } });
    // The deployment's own archive of the same entries is intact, and says its key was pinned.
    expect((await post(good)).json.data).toMatchObject({ ok: true, keyTrust: "pinned", keyFingerprint: signer.keyFingerprint });
  });

  const traversal = (marker: string) => [
    `../../../../tmp/${marker}`,
    `/tmp/${marker}`,
    `..\\..\\..\\tmp\\${marker}`,
    `audit.ndjson.000001/../../${marker}`,
    `./audit.ndjson.000002`,
    `C:\\tmp\\${marker}`,
    `${marker}/`,
  ];

  it("never writes a name from the archive to disk: path traversal, absolute and backslash names are refused", async () => {
    const marker = `eg-h-evidence-${randomUUID()}`;
    const tmpBefore = listTree(privateTmp);
    for (const name of traversal(marker)) {
      for (const where of ["first", "after-data", "as-manifest"] as const) {
        const body = Buffer.from("owned\n");
        const archive = await withItems((items) =>
          where === "first"
            ? [{ name, body }, ...items]
            : where === "after-data"
              ? [...items.slice(0, 1), { name, body }, ...items.slice(1)]
              : [...items.slice(0, 1), { name, body: items[1]!.body }, ...items.slice(2)],
        );
        const r = await post(archive);
        expect(r.status, `${name} (${where})`).toBe(400);
        expect(r.json.error).toMatch(/^not an evidence archive: /);
        expect(r.json.error).not.toContain(marker);
      }
    }
    // Nothing anywhere: not at the names, not relative to this process, not under the temp directory.
    for (const p of [`/tmp/${marker}`, path.resolve(`../../../../tmp/${marker}`), path.resolve(marker), path.join(os.tmpdir(), marker)])
      expect(fs.existsSync(p), p).toBe(false);
    expect(listTree(privateTmp)).toEqual(tmpBefore);
    // The audit log names no part of them either.
    const rows = await auditRows();
    expect(JSON.stringify(rows.map((r) => r.detail))).not.toContain(marker);
    expect(rows.at(-1)).toMatchObject({ detail: { ok: false, outcome: "refused" } });
  });

  it("refuses links, directories, extra and duplicate entries, and misordered parts", async () => {
    const cases: [string, (items: TarItem[]) => TarItem[]][] = [
      ["symlink as a part", (items) => [{ name: "audit.ndjson.000001", type: "symlink", linkname: "/etc/passwd" }, ...items.slice(1)]],
      [
        "hard link",
        (items) => [
          ...items.slice(0, 1),
          { name: "audit.ndjson.000002", type: "link", linkname: "audit.ndjson.000001" },
          ...items.slice(1),
        ],
      ],
      ["directory", (items) => [{ name: "audit.ndjson.000001", type: "directory" }, ...items]],
      ["extra entry", (items) => [...items, { name: "README.txt", body: "hello" }]],
      ["extra before data", (items) => [{ name: "notes", body: "x" }, ...items]],
      ["duplicate part", (items) => [items[0]!, ...items]],
      ["duplicate manifest", (items) => [...items.slice(0, 2), items[1]!, ...items.slice(2)]],
      ["duplicate key at the end", (items) => [...items, items.at(-1)!]],
      ["part after manifest", (items) => [...items.slice(1, 2), items[0]!, ...items.slice(2)]],
      ["part 2 without part 1", (items) => [{ ...items[0]!, name: "audit.ndjson.000002" }, ...items.slice(1)]],
      ["mixed formats", (items) => [items[0]!, { name: "audit.csv.000002", body: "x\n" }, ...items.slice(1)]],
      ["no data", (items) => items.slice(1)],
      ["no signature and key", (items) => items.slice(0, 2)],
      ["empty archive", () => []],
      ["part 000000", (items) => [{ ...items[0]!, name: "audit.ndjson.000000" }, ...items.slice(1)]],
      ["__proto__", (items) => [{ name: "__proto__", body: "{}" }, ...items]],
      ["constructor", (items) => [...items.slice(0, 1), { name: "constructor", body: "{}" }, ...items.slice(1)]],
    ];
    for (const [label, edit] of cases) {
      const r = await post(await withItems(edit));
      expect(r.status, label).toBe(400);
      expect(r.json.error, label).toMatch(/^not an evidence archive: /);
    }
  });

  it("refuses a manifest that is not JSON, not a manifest, or names another file (even `..`)", async () => {
    const manifest = JSON.parse(goodItems[1]!.body.toString("utf8"));
    const cases: [string, Buffer | string, RegExp][] = [
      ["not JSON", "this is { not json", /malformed \(not JSON\)/],
      ["not UTF-8", Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), /malformed \(not JSON\)/],
      ["JSON, not a manifest", JSON.stringify({ kind: "elicitation-gateway.audit-export" }), /missing or invalid fields/],
      ["__proto__ manifest", '{"__proto__":{"ok":true}}', /missing or invalid fields/],
      ["file ..", JSON.stringify({ ...manifest, file: ".." }), /names a data file other than/],
      ["file traversal", JSON.stringify({ ...manifest, file: "../../../../tmp/x" }), /names a data file other than/],
      ["file absolute", JSON.stringify({ ...manifest, file: "/etc/passwd" }), /names a data file other than/],
      ["file of the other format", JSON.stringify({ ...manifest, file: "audit.csv" }), /names a data file other than/],
      ["huge manifest", JSON.stringify({ ...manifest, pad: "x".repeat(100_000) }), /larger than it can be/],
    ];
    for (const [label, body, error] of cases) {
      const r = await post(await withItems((items) => items.map((i) => (i.name === "manifest.json" ? { ...i, body } : i))));
      expect(r.status, label).toBe(400);
      expect(r.json.error, label).toMatch(error);
    }
    // A manifest of the other format whose file matches it, next to ndjson parts: still refused.
    const csvManifest = JSON.stringify({ ...manifest, format: "csv", file: "audit.csv" });
    const r = await post(await withItems((items) => items.map((i) => (i.name === "manifest.json" ? { ...i, body: csvManifest } : i))));
    expect(r.status).toBe(400);
  });

  it("refuses what is not a tar: wrong content type, multipart, JSON, random bytes, truncated, empty", async () => {
    const form = new FormData();
    form.append("manifest", new Blob([new Uint8Array(goodItems[1]!.body)]), "manifest.json");
    form.append("data", new Blob([new Uint8Array(goodItems[0]!.body)]), "../../../../tmp/x");
    const multipart = await fetch(`${base}/verify`, { method: "POST", body: form });
    expect(multipart.status).toBe(400);
    expect((await multipart.json()).error).toMatch(/Content-Type application\/x-tar/);
    for (const [label, body, type] of [
      ["text/plain", good, "text/plain"],
      ["json", '{"a":1}', "application/json"],
      ["no type", good, ""],
      ["random bytes", Buffer.alloc(4096, 7), "application/x-tar"],
      ["truncated", good.subarray(0, 700), "application/x-tar"],
      ["gzip magic", Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(1022)]), "application/x-tar"],
      ["empty", Buffer.alloc(0), "application/x-tar"],
    ] as const) {
      const r = await post(body, type);
      expect(r.status, label).toBe(400);
      expect(r.json.ok, label).toBe(false);
    }
  });

  it("refuses a declared length over the cap without reading the body", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        `${base}/verify`,
        { method: "POST", headers: { "content-type": "application/x-tar", "content-length": String(CAP + 1) } },
        resolve,
      );
      req.on("error", reject);
      req.write(good.subarray(0, 512)); // and nothing more: the answer must not wait for the rest
    });
    expect(res.statusCode).toBe(413);
    res.resume();
    expect((await auditRows()).at(-1)).toMatchObject({ detail: { ok: false, outcome: "too_large" } });
  });

  it("cuts a 150 MB chunked upload (no Content-Length) at the cap, with flat memory and nothing on disk", async () => {
    const total = 150 * 1024 * 1024;
    // Valid, hash-chained lines (so nothing but the cap stops the server), generated on demand.
    function* body(): Generator<Buffer> {
      const header = Buffer.alloc(512);
      header.write("audit.ndjson.000001", 0);
      header.write("0000644\0", 100);
      header.write("0000000\0", 108);
      header.write("0000000\0", 116);
      header.write(total.toString(8).padStart(11, "0") + "\0", 124);
      header.write("00000000000\0", 136);
      header.write("        ", 148);
      header.write("0", 156);
      header.write("ustar\0", 257);
      header.write("00", 263);
      let sum = 0;
      for (const b of header) sum += b;
      header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
      yield header;
      let sent = 0;
      let prev = GENESIS_HASH;
      for (let seq = 1; sent < total; seq++) {
        const e: Omit<AuditEntry, "hash"> = {
          seq,
          ts: "2026-11-30T00:00:00.000Z",
          actorType: "system",
          actorId: "a",
          action: "record.revoked",
          targetType: "record",
          targetId: `r${seq}`,
          detail: { pad: "p".repeat(64 * 1024) },
          prevHash: prev,
        };
        const hash = computeHash(e);
        prev = hash;
        let line = Buffer.from(entryLine({ ...e, hash }) + "\n");
        if (sent + line.length > total) line = line.subarray(0, total - sent);
        sent += line.length;
        yield line;
      }
    }
    // The server runs in a process of its own, which samples its own memory (see the helper).
    // `node --import tsx`, not the tsx command (which would run the server in a grandchild).
    // The young generation pinned to 16 MB semi-spaces (Node 20's default; Node 22 and 24 size it
    // from the heap and let far more garbage wait), so the same bound means the same on every Node.
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--max-semi-space-size=16", "--import", "tsx", path.join(root, "tests/helpers/verify-upload-server.ts")],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: t.url ?? "", AUDIT_VERIFY_MAX_BYTES: String(CAP), TMPDIR: privateTmp, DATA_DIR: keys },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const [first] = (await once(child.stdout!, "data")) as [Buffer];
    const childBase = `http://127.0.0.1:${JSON.parse(first.toString()).port}`;
    // Warm up (first verification loads the code paths), then reset the high-water mark.
    expect(
      (await fetch(`${childBase}/verify`, { method: "POST", headers: { "content-type": "application/x-tar" }, body: new Uint8Array(good) }))
        .status,
    ).toBe(200);
    await fetch(`${childBase}/memory/reset`);
    const tmpBefore = listTree(privateTmp);
    let tmpDuring: string[] = [];
    const watcher = setInterval(() => (tmpDuring = listTree(privateTmp)), 50);
    let sentBytes = 0;
    try {
      const code = await new Promise<number>((resolve, reject) => {
        const source = Readable.from(body());
        source.on("data", (c: Buffer) => (sentBytes += c.length));
        const req = http.request(
          `${childBase}/verify`,
          { method: "POST", headers: { "content-type": "application/x-tar", "transfer-encoding": "chunked" } },
          (res) => {
            // The answer came before the body ended: stop sending.
            source.unpipe(req);
            source.destroy();
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on("error", reject);
        source.pipe(req);
      });
      expect(code).toBe(413);
    } finally {
      clearInterval(watcher);
    }
    const memory = (await (await fetch(`${childBase}/memory`)).json()) as { base: number; peak: number };
    const growth = memory.peak - memory.base;
    child.kill("SIGTERM");
    await once(child, "exit");
    // The answer came only once the cap was passed, i.e. after the server had read that much.
    expect(sentBytes).toBeGreaterThan(CAP);
    // Buffering the 100 MB read before the cap would show as at least that much (a deliberately
    // buffering server measured 102 MB). Streaming holds a few chunks; the margin above that is for
    // garbage the collector has not reclaimed yet on a loaded machine, well short of the 100 MB.
    expect(growth).toBeLessThan(70 * 1024 * 1024);
    expect(tmpDuring).toEqual(tmpBefore);
    expect(listTree(privateTmp)).toEqual(tmpBefore);
    if (t.url) expect((await auditRows()).at(-1)).toMatchObject({ detail: { ok: false, outcome: "too_large" } });
  }, 300_000);
});

describe("AUDIT_VERIFY_MAX_BYTES", () => {
  it("defaults to 512 MiB and refuses a bad value by name", () => {
    expect(verifyUploadLimit({})).toBe(512 * 1024 * 1024);
    expect(verifyUploadLimit({ AUDIT_VERIFY_MAX_BYTES: "1048576" })).toBe(1048576);
    for (const bad of ["0", "-1", "1e9", "12MB", "9007199254740993", " x "])
      expect(() => verifyUploadLimit({ AUDIT_VERIFY_MAX_BYTES: bad })).toThrow(/AUDIT_VERIFY_MAX_BYTES/);
  });
});
