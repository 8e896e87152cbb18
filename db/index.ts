// The app's shared store: opened once per process and kept on globalThis so that Next.js module
// reloads and the several bundles of one server process reuse it (and the PGlite lock).
import { openStore, type Store } from "./client";
import { storeConfigFromEnv } from "./config";

const holder = globalThis as typeof globalThis & { __elicitationStore?: Promise<Store> };

export function getStore(): Promise<Store> {
  if (!holder.__elicitationStore) {
    const opening = openStore(storeConfigFromEnv(), { purpose: "app server" });
    holder.__elicitationStore = opening;
    // A failed open is not cached: the next request tries again and reports its own error.
    opening.catch(() => {
      if (holder.__elicitationStore === opening) holder.__elicitationStore = undefined;
    });
  }
  return holder.__elicitationStore;
}

export async function getDb() {
  return (await getStore()).db;
}
