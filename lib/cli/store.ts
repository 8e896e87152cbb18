// Opens the configured store for one CLI command and always closes it (releasing the PGlite lock).
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { migrateStore } from "@/db/migrate";

export async function withStore<T>(purpose: string, fn: (store: Store) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const config = storeConfigFromEnv();
  const store = await openStore(config, { purpose });
  try {
    if (options.migrate) await migrateStore(store, config);
    return await fn(store);
  } finally {
    await store.close();
  }
}
