// The origin allowlist: where URL mode may send users, each origin with its exact redirect URIs.
// HTTPS only (loopback HTTP in development), no wildcards, no prefixes; every URI passes the URL
// check, and warnings (IDN, mixed script, IP literal) must be accepted explicitly.
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { origins } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { isProduction } from "@/lib/config/app-env";
import { checkUrl } from "./url-check";

export class OriginError extends Error {
  override name = "OriginError";
}

export const addOriginInput = z.object({
  redirectUris: z
    .string()
    .transform((s) => s.split(/\s+/).filter(Boolean))
    .pipe(z.array(z.string().max(500)).min(1, "at least one redirect URI").max(20)),
  acceptWarnings: z.preprocess((v) => v === "on" || v === true, z.boolean()),
  note: z.string().max(200).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE).optional(),
});

export async function addOrigin(db: Db, actor: string, input: z.infer<typeof addOriginInput>) {
  const dev = !isProduction();
  const uris = input.redirectUris;
  const parsed = uris.map((u) => {
    if (u.includes("*")) throw new OriginError(`${u}: wildcards are not allowed`);
    const check = checkUrl(u, { dev });
    if (check.verdict === "block") throw new OriginError(`${u}: ${check.reasons.map((r) => r.detail).join("; ")}`);
    if (check.verdict === "warn" && !input.acceptWarnings)
      throw new OriginError(`${u}: ${check.reasons.map((r) => r.detail).join("; ")} (accept the warnings to add it anyway)`);
    return new URL(u);
  });
  const origin = parsed[0]!.origin;
  if (parsed.some((u) => u.origin !== origin)) throw new OriginError("all redirect URIs must be on one origin");
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(origins).where(eq(origins.origin, origin)).for("update");
    const redirectUris = [...new Set(parsed.map((u) => u.toString()))];
    if (existing) {
      await tx
        .update(origins)
        .set({ redirectUris, disabledAt: null, note: input.note ?? existing.note })
        .where(eq(origins.id, existing.id));
    } else {
      await tx.insert(origins).values({ origin, redirectUris, note: input.note ?? null, createdBy: actor });
    }
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.originAdded,
      targetType: "origin",
      targetId: origin,
      detail: { redirect_uris: redirectUris.length, warnings_accepted: input.acceptWarnings },
    });
    return { origin, redirectUris };
  });
}

export async function disableOrigin(db: Db, actor: string, origin: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(origins)
      .set({ disabledAt: new Date() })
      .where(and(eq(origins.origin, origin), isNull(origins.disabledAt)))
      .returning();
    if (!row) throw new OriginError(`${origin} is not on the allowlist`);
    await appendAudit(tx, {
      actorType: "operator",
      actorId: actor,
      action: AUDIT_ACTIONS.originRemoved,
      targetType: "origin",
      targetId: origin,
      detail: {},
    });
    return { origin };
  });
}

export async function listOrigins(db: Db) {
  return db.select().from(origins).orderBy(origins.origin);
}
