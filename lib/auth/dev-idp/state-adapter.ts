// The bundled provider's storage adapter (sessions, grants, interactions, codes, registered
// clients, device codes), over a small record store. Written here rather than using
// oidc-provider's built-in memory adapter for two reasons: that one is a process-wide LRU of 1000
// entries shared by every provider in the process (registering 1000 clients evicts every session),
// and the consent page needs "the grants of this account", which only an index can answer.
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

export interface IdpRecord {
  model: string;
  id: string;
  payload: AdapterPayload;
  /** Epoch milliseconds; null for records without expiry (registered clients). */
  expiresAt: number | null;
}

/** Where the records live: process memory, or the database (pg-record-store.ts). */
export interface IdpRecordStore {
  put(record: IdpRecord): Promise<void>;
  get(model: string, id: string): Promise<IdpRecord | undefined>;
  getByUid(model: string, uid: string): Promise<IdpRecord | undefined>;
  getByUserCode(model: string, userCode: string): Promise<IdpRecord | undefined>;
  remove(model: string, id: string): Promise<void>;
  removeByGrant(model: string, grantId: string): Promise<void>;
  listByAccount(model: string, accountId: string): Promise<IdpRecord[]>;
}

const live = (r: IdpRecord | undefined, now = Date.now()) => (r && (r.expiresAt === null || r.expiresAt > now) ? r : undefined);

export function createMemoryRecordStore(): IdpRecordStore {
  const records = new Map<string, IdpRecord>();
  const key = (model: string, id: string) => `${model}\u0000${id}`;
  const all = (model: string) => [...records.values()].filter((r) => r.model === model && live(r));
  return {
    async put(record) {
      records.set(key(record.model, record.id), record);
      // Sweep expired records now and then so the map does not grow without bound.
      if (records.size % 256 === 0) for (const [k, r] of records) if (!live(r)) records.delete(k);
    },
    async get(model, id) {
      return live(records.get(key(model, id)));
    },
    async getByUid(model, uid) {
      return all(model).find((r) => r.payload.uid === uid);
    },
    async getByUserCode(model, userCode) {
      return all(model).find((r) => r.payload.userCode === userCode);
    },
    async remove(model, id) {
      records.delete(key(model, id));
    },
    async removeByGrant(model, grantId) {
      for (const r of all(model)) if (r.payload.grantId === grantId) records.delete(key(model, r.id));
    },
    async listByAccount(model, accountId) {
      return all(model).filter((r) => r.payload.accountId === accountId);
    },
  };
}

export function createStateAdapter(store: IdpRecordStore): AdapterFactory {
  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      await store.put({ model, id, payload, expiresAt: typeof expiresIn === "number" ? Date.now() + expiresIn * 1000 : null });
    },
    async find(id) {
      return (await store.get(model, id))?.payload;
    },
    async findByUid(uid) {
      return (await store.getByUid(model, uid))?.payload;
    },
    async findByUserCode(userCode) {
      return (await store.getByUserCode(model, userCode))?.payload;
    },
    async consume(id) {
      const record = await store.get(model, id);
      if (record) await store.put({ ...record, payload: { ...record.payload, consumed: Math.floor(Date.now() / 1000) } });
    },
    async destroy(id) {
      await store.remove(model, id);
    },
    async revokeByGrantId(grantId) {
      await store.removeByGrant(model, grantId);
    },
  });
}
