// Gate evidence in the audit export: each stored evidence document follows the manifest as
// `gate-evidence.<sha256>.json`, and the archive verifier checks its hash and its signature by the
// archive's own key. A document signed by another key, or edited, fails the archive.
import { Readable } from "node:stream";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flows } from "@/db/schema";
import { exportArchive } from "@/lib/audit/export-archive";
import { loadSigner } from "@/lib/audit/signing";
import { verifyArchive } from "@/lib/audit/verify-archive";
import { buildEvidence, evidenceByHash, signEvidence, storeEvidence } from "@/lib/gates/evidence";
import { packTar, readTar } from "../helpers/evidence-tar";
import { createTestStore, type TestStore } from "../helpers/test-store";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-gate-evidence-"));
const signer = loadSigner({ DATA_DIR: tmp });
const other = loadSigner({ DATA_DIR: path.join(tmp, "other") });
let t: TestStore;
let hash: string;

async function archiveBytes(): Promise<Buffer> {
  const a = exportArchive({ db: t.store.db, format: "ndjson", signer, actor: { type: "operator", id: "user-rita-0001" } });
  const chunks: Buffer[] = [];
  for await (const c of a.stream) chunks.push(c as Buffer);
  await a.done;
  return Buffer.concat(chunks);
}
const verify = (bytes: Buffer) => verifyArchive(Readable.from([bytes]), { maxBytes: Number.MAX_SAFE_INTEGER });

beforeAll(async () => {
  t = await createTestStore();
  const [flow] = await t.store.db
    .insert(flows)
    .values({
      id: "generate_report:claude-code",
      workflow: "generate_report",
      profileId: "claude-code",
      serverVersion: "0.1.0",
      stage: "canary",
      canaryPercent: 10,
      fingerprint: "fp-1",
      fingerprintInputs: {},
      retestRequired: true,
    })
    .returning();
  const doc = buildEvidence({
    runId: "r1",
    flow: flow!,
    target: "http://localhost:1",
    tokens: "minted",
    profile: { profileId: "claude-code", source: "profile-default", variants: [] },
    ranBy: "user-rita-0001",
    startedAt: new Date(),
    gates: [],
  });
  const signed = signEvidence(doc, signer);
  hash = signed.hash;
  await t.store.db.transaction((tx) => storeEvidence(tx, doc, signed));
});
afterAll(async () => {
  await t?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("gate evidence in the audit export", () => {
  it("is stored under its hash and travels in the archive, which verifies", async () => {
    expect((await evidenceByHash(t.store.db, hash))?.flowId).toBe("generate_report:claude-code");
    const bytes = await archiveBytes();
    const names = (await readTar(bytes)).map((e) => e.name);
    expect(names.at(-1)).toBe(`gate-evidence.${hash}.json`);
    expect(await verify(bytes)).toMatchObject({ ok: true });
  });

  it("an edited document, or one signed by another key, fails the archive", async () => {
    const entries = await readTar(await archiveBytes());
    const last = entries.at(-1)!;
    const body = JSON.parse(last.body.toString()) as { signature: string; signedBytes: string; keyFingerprint: string };
    const edited = { ...body, signedBytes: body.signedBytes.replace('"passed":true', '"passed":false') };
    const foreign = { ...body, signature: other.sign(body.signedBytes) };
    for (const [bad, problem] of [
      [edited, /does not hash to its name/],
      [foreign, /not signed by the archive's key/],
    ] as const) {
      const tar = await packTar([
        ...entries.slice(0, -1).map((e) => ({ name: e.name, body: e.body })),
        { name: last.name, body: JSON.stringify(bad) },
      ]);
      const r = await verify(tar);
      expect(r.ok).toBe(false);
      expect((r as { problem: string }).problem).toMatch(problem);
    }
  });

  it("an entry with another name after the key is still refused", async () => {
    const entries = await readTar(await archiveBytes());
    const tar = await packTar([
      ...entries.map((e) => ({ name: e.name, body: e.body })),
      { name: "gate-evidence.notahash.json", body: "{}" },
    ]);
    await expect(verify(tar)).rejects.toThrow(/unexpected name/);
  });
});
