// Opens the configured store for one CLI command and always closes it (releasing the PGlite lock).
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { migrateStore } from "@/db/migrate";

const hosted = globalThis as typeof globalThis & { __ctlHostedStore?: Store };

/** Inside the app server, commands run on its open store (the local control channel). */
export function hostStore(store: Store): void {
  hosted.__ctlHostedStore = store;
}

export async function withStore<T>(purpose: string, fn: (store: Store) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  if (hosted.__ctlHostedStore) return fn(hosted.__ctlHostedStore);
  const config = storeConfigFromEnv();
  const store = await openStore(config, { purpose });
  try {
    if (options.migrate) await migrateStore(store, config);
    return await fn(store);
  } finally {
    await store.close();
  }
}
