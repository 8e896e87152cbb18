import { storeConfigFromEnv } from "@/db/config";
import { migrateStore } from "@/db/migrate";
import { isStoreEmpty, seedDemo } from "@/lib/demo/seed";
import { emit, parse, positiveInt } from "../args";
import { CliError } from "../errors";
import { progress } from "../progress";
import { withStore } from "../store";

export async function migrateCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } });
  const config = storeConfigFromEnv();
  const location = await withStore("ctl migrate", async (store) => {
    await migrateStore(store, config);
    return store.location;
  });
  emit(values.json ?? false, { ok: true, store: config.kind, location }, `migrated ${config.kind} store at ${location}`);
  return 0;
}

export async function seedDemoCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { records: { type: "string" }, "if-empty": { type: "boolean" }, json: { type: "boolean" } });
  const records = positiveInt("records", values.records, 2000);
  const json = values.json ?? false;
  return withStore(
    "ctl seed-demo",
    async (store) => {
      if (!(await isStoreEmpty(store.db))) {
        if (values["if-empty"]) {
          emit(json, { ok: true, seeded: false }, "store already holds data; nothing seeded");
          return 0;
        }
        throw new CliError("store already holds data; seed-demo only seeds an empty store (use --if-empty to make this a no-op)");
      }
      const bar = progress("seeding", "records");
      const summary = await seedDemo(store.db, { records, onProgress: (done, total) => bar.update(done, total) }).finally(() => bar.stop());
      emit(
        json,
        { ok: true, seeded: true, ...summary },
        `seeded ${summary.records} records, ${summary.sessions} sessions, ${summary.events} events, ${summary.auditEntries} audit entries`,
      );
      return 0;
    },
    { migrate: true },
  );
}
