// Re-hashes the chain stored in the database, page by page, and reports the first broken entry.
// With the triggers in place a break means someone bypassed them (a superuser, a restored backup):
// exactly what an auditor needs to know.
import { asc, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { computeHash, GENESIS_HASH } from "./canonical";
import { rowToEntry } from "./export-rows";

export type ChainReport =
  { ok: true; count: number; headSeq: number; headHash: string | null } | { ok: false; count: number; brokenSeq: number; problem: string };

const PAGE = 10_000;

export async function verifyStoredChain(db: Db): Promise<ChainReport> {
  let prevHash = GENESIS_HASH;
  let expected = 1;
  let count = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.seq, expected - 1))
      .orderBy(asc(auditLog.seq))
      .limit(PAGE);
    for (const row of rows) {
      const { hash, ...body } = rowToEntry(row);
      if (row.seq !== expected) return { ok: false, count, brokenSeq: expected, problem: `entry ${expected} is missing` };
      if (computeHash(body) !== hash) return { ok: false, count, brokenSeq: row.seq, problem: `entry ${row.seq} was changed` };
      if (row.prevHash !== prevHash)
        return { ok: false, count, brokenSeq: row.seq, problem: `entry ${row.seq} does not link to ${row.seq - 1}` };
      prevHash = hash;
      expected++;
      count++;
    }
    if (rows.length < PAGE) break;
  }
  return { ok: true, count, headSeq: expected - 1, headHash: count ? prevHash : null };
}
