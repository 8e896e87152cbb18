// The bundled provider's records in the database (table idp_records), so sessions, consents,
// registered clients and codes survive a restart and are shared by every instance. oidc-provider's
// ids are often the bearer values themselves (authorization codes, opaque tokens, session ids), so
// only SHA-256 hashes of ids and lookup keys are stored in the clear; the record itself is sealed
// with the vault key (AES-256-GCM), bound to its namespace, model and id hash so a row cannot be
// moved onto another. Nothing here is logged.
import { createHash } from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { AdapterPayload } from "oidc-provider";
import type { Db } from "@/db/client";
import { idpRecords } from "@/db/schema";
import { openBlob, sealBlob, VaultError, type VaultKey } from "@/lib/vault/vault";
import type { IdpRecord, IdpRecordStore } from "./state-adapter";

const hash = (value: string) => createHash("sha256").update(value).digest("hex");
const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

export function createPgRecordStore(db: () => Promise<Db>, namespace: string, key: VaultKey): IdpRecordStore {
  const context = (model: string, idHash: string) => `idp-record|${namespace}|${model}|${idHash}`;
  const live = () => or(isNull(idpRecords.expiresAt), gt(idpRecords.expiresAt, new Date()));
  // A record that no longer opens (the vault key was rotated, or the row was tampered with) is
  // treated as absent: the user signs in again rather than meeting an error page.
  const decode = (row: typeof idpRecords.$inferSelect): IdpRecord | undefined => {
    try {
      const { id, payload } = JSON.parse(openBlob(key, context(row.model, row.idHash), row.sealed)) as {
        id: string;
        payload: AdapterPayload;
      };
      return { model: row.model, id, payload, expiresAt: row.expiresAt ? row.expiresAt.getTime() : null };
    } catch (err) {
      if (err instanceof VaultError) return undefined;
      throw err;
    }
  };
  const first = async (where: ReturnType<typeof and>) => {
    const [row] = await (await db()).select().from(idpRecords).where(and(where, live())).limit(1);
    return row ? decode(row) : undefined;
  };
  let writes = 0;
  return {
    async put(record) {
      const idHash = hash(record.id);
      const p = record.payload;
      const grantId = str(p.grantId);
      const accountId = str(p.accountId);
      const values = {
        namespace,
        model: record.model,
        idHash,
        sealed: sealBlob(key, context(record.model, idHash), JSON.stringify({ id: record.id, payload: p })),
        uidHash: str(p.uid) ? hash(str(p.uid)!) : null,
        userCodeHash: str(p.userCode) ? hash(str(p.userCode)!) : null,
        grantIdHash: grantId ? hash(grantId) : null,
        accountHash: accountId ? hash(accountId) : null,
        expiresAt: record.expiresAt === null ? null : new Date(record.expiresAt),
      };
      const d = await db();
      await d
        .insert(idpRecords)
        .values(values)
        .onConflictDoUpdate({ target: [idpRecords.namespace, idpRecords.model, idpRecords.idHash], set: { ...values } });
      // Expired records are never read; sweep them now and then so the table stays small.
      if (++writes % 200 === 0)
        await d.delete(idpRecords).where(and(eq(idpRecords.namespace, namespace), lt(idpRecords.expiresAt, new Date())));
    },
    get: (model, id) => first(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.idHash, hash(id)))),
    getByUid: (model, uid) =>
      first(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.uidHash, hash(uid)))),
    getByUserCode: (model, userCode) =>
      first(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.userCodeHash, hash(userCode)))),
    async remove(model, id) {
      await (
        await db()
      )
        .delete(idpRecords)
        .where(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.idHash, hash(id))));
    },
    async removeByGrant(model, grantId) {
      await (
        await db()
      )
        .delete(idpRecords)
        .where(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.grantIdHash, hash(grantId))));
    },
    async listByAccount(model, accountId) {
      const rows = await (
        await db()
      )
        .select()
        .from(idpRecords)
        .where(and(eq(idpRecords.namespace, namespace), eq(idpRecords.model, model), eq(idpRecords.accountHash, hash(accountId)), live()));
      return rows.map(decode).filter((r): r is IdpRecord => r !== undefined);
    },
  };
}
