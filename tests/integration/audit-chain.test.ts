import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { pgErrorOf } from "@/db/errors";
import { auditLog } from "@/db/schema";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/audit/actions";
import { GENESIS_HASH } from "@/lib/audit/canonical";
import { verifyStoredChain } from "@/lib/audit/chain-verify";
import { exportAudit } from "@/lib/audit/export";
import { exportArchive, writeArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import { ValueLeakError } from "@/lib/audit/value-free";
import { appendAudit } from "@/lib/audit/writer";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
const signerEnv = { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "eg-keys-")) };

beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t.dispose();
});

const entry = (i: number, actor = "op-1") => ({
  actorType: "operator" as const,
  actorId: actor,
  action: AUDIT_ACTIONS.killSwitchOn,
  targetType: "kill_switch",
  targetId: `flow:f${i}`,
  detail: { n: i },
});

describe("audit chain", () => {
  it("links each entry to the previous one from the genesis hash", async () => {
    const a = await t.store.db.transaction((tx) => appendAudit(tx, entry(1)));
    const b = await t.store.db.transaction((tx) => appendAudit(tx, entry(2)));
    expect(a.prevHash).toBe(GENESIS_HASH);
    expect(b.prevHash).toBe(a.hash);
    expect(b.seq).toBe(a.seq + 1);
  });

  it("rolls back with the business transaction it belongs to", async () => {
    const before = await verifyStoredChain(t.store.db);
    await expect(
      t.store.db.transaction(async (tx) => {
        await appendAudit(tx, entry(99));
        throw new Error("business change failed");
      }),
    ).rejects.toThrow("business change failed");
    const after = await verifyStoredChain(t.store.db);
    expect(after.ok && before.ok && after.count === before.count).toBe(true);
  });

  it("stays one unbroken chain under concurrent writers on separate connections", async () => {
    const writers: Store[] = [];
    for (let i = 0; i < 6; i++) {
      writers.push(t.config.kind === "postgres" ? await openStore({ ...t.config, poolMax: 1 }) : t.store);
    }
    try {
      await Promise.all(
        writers.map((w, wi) =>
          (async () => {
            for (let i = 0; i < 20; i++) await w.db.transaction((tx) => appendAudit(tx, entry(i, `writer-${wi}`)));
          })(),
        ),
      );
    } finally {
      if (t.config.kind === "postgres") for (const w of writers) await w.close();
    }
    const report = await verifyStoredChain(t.store.db);
    expect(report).toMatchObject({ ok: true, count: 122 });
  });

  it("refuses an entry that does not extend the head (no fork)", async () => {
    const report = await verifyStoredChain(t.store.db);
    if (!report.ok) throw new Error("chain broken before the test");
    const forged = {
      seq: report.headSeq + 1,
      ts: new Date(),
      actorType: "system" as const,
      actorId: "x",
      action: "audit.exported",
      targetType: "x",
      targetId: "x",
      detail: {},
      hash: "f".repeat(64),
    };
    const wrongLink = await t.store.db
      .insert(auditLog)
      .values({ ...forged, prevHash: "e".repeat(64) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(pgErrorOf(wrongLink)).toMatchObject({ code: "23000", message: expect.stringMatching(/does not extend the chain head/) });
    // Re-using an existing seq (a second branch off an earlier entry) is refused too.
    const branch = await t.store.db
      .insert(auditLog)
      .values({ ...forged, seq: 1, prevHash: GENESIS_HASH })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(pgErrorOf(branch)?.code).toBe("23505");
    // A run of several entries is checked as a whole: a correct first link does not carry a
    // broken second one, a gap in seq is refused, and nothing of the statement is kept.
    const first = { ...forged, prevHash: report.headHash!, hash: "a".repeat(64) };
    const run = await t.store.db
      .insert(auditLog)
      .values([first, { ...forged, seq: forged.seq + 1, prevHash: "b".repeat(64), hash: "c".repeat(64) }])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(pgErrorOf(run)).toMatchObject({
      code: "23000",
      message: expect.stringMatching(new RegExp(`entry ${forged.seq + 1} does not extend`)),
    });
    const gap = await t.store.db
      .insert(auditLog)
      .values({ ...forged, seq: forged.seq + 5, prevHash: report.headHash! })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(pgErrorOf(gap)?.code).toBe("23000");
    expect(await verifyStoredChain(t.store.db)).toMatchObject({ ok: true, count: report.count });
  });

  it("refuses UPDATE, DELETE and TRUNCATE in the database itself", async () => {
    for (const statement of [
      sql`update audit_log set actor_id = 'someone-else' where seq = 1`,
      sql`delete from audit_log where seq = 1`,
      sql`truncate audit_log`,
    ]) {
      const err = await t.store.db.execute(statement).then(
        () => undefined,
        (e: unknown) => e,
      );
      // 42501 insufficient_privilege, raised by the audit_log_refuse_change trigger.
      expect(pgErrorOf(err)).toMatchObject({ code: "42501", message: expect.stringMatching(/append-only/) });
    }
    expect((await verifyStoredChain(t.store.db)).ok).toBe(true);
  });

  it("refuses details that carry values, and rejects non resource.verb actions", async () => {
    await expect(t.store.db.transaction((tx) => appendAudit(tx, { ...entry(1), detail: { token: "abc" } }))).rejects.toThrow(
      ValueLeakError,
    );
    await expect(t.store.db.transaction((tx) => appendAudit(tx, { ...entry(1), action: "KillSwitch On" as AuditAction }))).rejects.toThrow(
      /resource\.verb/,
    );
  });

  it("finds a tampered entry, and export refuses to sign it and leaves nothing behind", async () => {
    // Simulate someone with superuser rights bypassing the triggers.
    await t.store.db.execute(sql`alter table audit_log disable trigger user`);
    await t.store.db.execute(sql`update audit_log set target_id = 'tampered' where seq = 5`);
    await t.store.db.execute(sql`alter table audit_log enable trigger user`);
    expect(await verifyStoredChain(t.store.db)).toMatchObject({ ok: false, brokenSeq: 5 });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "eg-export-"));
    await expect(
      exportAudit({ db: t.store.db, outDir: out, format: "ndjson", signer: loadSigner(signerEnv), actor: { type: "system", id: "test" } }),
    ).rejects.toThrow(/refusing to sign: stored audit entry 5/);
    expect(fs.readdirSync(out)).toEqual([]);
    // As an archive: the stream fails without a manifest, and the file being written is removed.
    const archive = exportArchive({
      db: t.store.db,
      format: "ndjson",
      signer: loadSigner(signerEnv),
      actor: { type: "operator", id: "op-1" },
    });
    const chunks: Buffer[] = [];
    await expect(
      (async () => {
        for await (const c of archive.stream) chunks.push(c as Buffer);
      })(),
    ).rejects.toThrow(/refusing to sign: stored audit entry 5/);
    await expect(archive.done).rejects.toThrow(/refusing to sign/);
    expect(Buffer.concat(chunks).includes("manifest.json")).toBe(false);
    const file = path.join(out, "evidence.tar");
    await expect(
      writeArchive({ db: t.store.db, format: "ndjson", signer: loadSigner(signerEnv), actor: { type: "system", id: "test" } }, file),
    ).rejects.toThrow(/refusing to sign/);
    expect(fs.readdirSync(out)).toEqual([]);
    // Neither attempt is recorded as an export.
    const exported = await t.store.db.query.auditLog.findMany({ where: (a, { eq }) => eq(a.action, AUDIT_ACTIONS.auditExported) });
    expect(exported).toEqual([]);
  });
});
