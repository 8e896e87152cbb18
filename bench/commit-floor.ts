// The physical floor of one governed elicitation's durable writes: the latency of a single-row
// commit on the same database, measured with the driver alone (no ORM, no query building). The
// design writes the record before the request leaves and the outcome before the result returns,
// so the floor of a governed call is the bare SDK's latency plus two such commits.
import { sql } from "drizzle-orm";
import type { Store } from "@/db/client";

/** Durable writes one governed elicitation needs (record before the ask, outcome before the result). */
export const DURABLE_WRITES_PER_CALL = 2;

export interface CommitProbe {
  /** n sequential single-row commits, each timed. */
  time(n: number): Promise<number[]>;
  drop(): Promise<void>;
}

export async function commitProbe(store: Store): Promise<CommitProbe> {
  const pg = store.sql;
  // A plain (logged) table: its commit waits for the WAL flush exactly as the record's does.
  const create = "create table if not exists bench_commit_floor (id bigserial primary key, v text not null)";
  if (pg) await pg.unsafe(create);
  else await store.db.execute(sql.raw(create));
  const insert = pg
    ? () => pg`insert into bench_commit_floor (v) values (${"x"})`.then(() => undefined)
    : () => store.db.execute(sql`insert into bench_commit_floor (v) values (${"x"})`).then(() => undefined);
  return {
    async time(n) {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await insert();
        out.push(performance.now() - t0);
      }
      return out;
    },
    async drop() {
      if (pg) await pg.unsafe("drop table if exists bench_commit_floor");
      else await store.db.execute(sql.raw("drop table if exists bench_commit_floor"));
    },
  };
}
