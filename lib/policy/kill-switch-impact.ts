// What engaging a kill switch would do right now, for the confirmation step: how many unfinished
// URL handles it revokes, and how many form requests in flight it lets end on their own.
import { count, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { elicitationRecords } from "@/db/schema";
import { UNFINISHED } from "@/lib/elicitation/revoke";

export interface KillSwitchImpact {
  scope: string;
  urlHandlesRevoked: number;
  formRequestsDrained: number;
}

export async function killSwitchImpact(db: Db): Promise<KillSwitchImpact[]> {
  const rows = await db
    .select({ mode: elicitationRecords.mode, n: count() })
    .from(elicitationRecords)
    .where(inArray(elicitationRecords.state, [...UNFINISHED]))
    .groupBy(elicitationRecords.mode);
  const url = Number(rows.find((r) => r.mode === "url")?.n ?? 0);
  const form = Number(rows.find((r) => r.mode === "form")?.n ?? 0);
  return [
    { scope: "global", urlHandlesRevoked: url, formRequestsDrained: form },
    { scope: "mode:form", urlHandlesRevoked: 0, formRequestsDrained: form },
    { scope: "mode:url", urlHandlesRevoked: url, formRequestsDrained: 0 },
  ];
}
