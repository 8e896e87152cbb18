// A migration test's starting point: an in-memory store migrated up to, not including, one named
// migration, so a test can write rows the way the older schema held them, migrate the rest of the
// way and check what the migration made of them. The older state comes from a copy of the
// migrations folder whose journal is cut before that migration (drizzle's migrator reads only the
// journal's entries).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { expect } from "vitest";
import { openStore, type Store } from "@/db/client";
import { migrationsFolder } from "@/db/migrate";

export interface StoreBeforeMigration {
  store: Store;
  /** Applies every migration from the cut on, up to the latest. */
  migrateToLatest(): Promise<void>;
  /** Closes the store and removes the cut copy of the migrations. */
  dispose(): Promise<void>;
}

/** `tagSuffix` names the first migration left out, e.g. "_client-profiles" for 0006_client-profiles. */
export async function storeBeforeMigration(tagSuffix: string): Promise<StoreBeforeMigration> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-mig-"));
  const before = path.join(tmp, "migrations");
  fs.cpSync(migrationsFolder, before, { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(before, "meta/_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify(journal));
  const store = await openStore({ kind: "pglite-memory" });
  const db = store.db as unknown as PgliteDatabase;
  await migrate(db, { migrationsFolder: before });
  return {
    store,
    migrateToLatest: () => migrate(db, { migrationsFolder }),
    dispose: async () => {
      await store.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
