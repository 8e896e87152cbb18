// A fresh, migrated store per test file. With DATABASE_URL: a new PostgreSQL database created
// next to the configured one and dropped afterwards. Without it: in-memory PGlite. Under CI=true a
// missing DATABASE_URL is a failure, so CI can never quietly test only the embedded store.
import { createDatabaseNextTo } from "@/db/create-database";
import { openStore, type Store } from "@/db/client";
import type { StoreConfig } from "@/db/config";
import { migrateStore } from "@/db/migrate";

export interface TestStore {
  store: Store;
  config: StoreConfig;
  /** Connection string of the fresh database (PostgreSQL only). */
  url?: string;
  dispose(): Promise<void>;
}

export function requirePostgresInCi(): void {
  if (process.env.CI === "true" && !process.env.DATABASE_URL) {
    throw new Error("CI=true but DATABASE_URL is not set: integration tests must run against PostgreSQL in CI");
  }
}

export function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  return createDatabaseNextTo(baseUrl, "eg_test");
}

export async function createTestStore(kind: "default" | "pglite" = "default"): Promise<TestStore> {
  requirePostgresInCi();
  const baseUrl = process.env.DATABASE_URL;
  if (kind === "default" && baseUrl) {
    const created = await createPostgresDatabase(baseUrl);
    const config: StoreConfig = { kind: "postgres", url: created.url, poolMax: 8 };
    const store = await openStore(config);
    await migrateStore(store, config);
    return {
      store,
      config,
      url: created.url,
      dispose: async () => {
        await store.close();
        await created.drop();
      },
    };
  }
  const config: StoreConfig = { kind: "pglite-memory" };
  const store = await openStore(config);
  await migrateStore(store, config);
  return { store, config, dispose: () => store.close() };
}
