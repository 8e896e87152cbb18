// The flow's client profile as observed in real sessions: each (client name, version, protocol
// revision, declared modes) that produced a record in this flow, read from the records and their
// sessions (the record's declared_elicitation; the session join only for rows older than that
// column). The gates replay each of them. A flow nobody used yet has no observations: then the
// gates use the profile's documented defaults (profile-clients.ts) in both revisions, and the
// evidence says that is where the profile came from.
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { elicitationRecords, mcpSessions, type Flow } from "@/db/schema";
import { PROFILE_CLIENTS } from "./profile-clients";

export const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof REVISIONS)[number];

export interface ClientVariant {
  name: string;
  version: string;
  revision: Revision;
  /** The elicitation capability exactly as declared (`{}` stays `{}`: form only); undefined = none. */
  elicitation: Record<string, unknown> | undefined;
}

export interface ClientProfileUsed {
  profileId: string;
  source: "observed" | "profile-default";
  variants: ClientVariant[];
}

export function variantLabel(v: ClientVariant): string {
  return `${v.name} ${v.version} @ ${v.revision}`;
}

export function declaredModes(v: ClientVariant): { form: boolean; url: boolean } {
  const e = v.elicitation;
  if (!e) return { form: false, url: false };
  const keys = Object.keys(e);
  return { form: keys.length === 0 || "form" in e, url: "url" in e };
}

const MAX_VARIANTS = 6;

export async function clientVariantsFor(db: DbOrTx, flow: Flow): Promise<ClientProfileUsed> {
  const rows = await db
    .selectDistinct({
      clientName: elicitationRecords.clientName,
      clientVersion: elicitationRecords.clientVersion,
      protocolVersion: elicitationRecords.protocolVersion,
      declared: elicitationRecords.declaredElicitation,
      capabilities: mcpSessions.capabilities,
    })
    .from(elicitationRecords)
    .leftJoin(mcpSessions, eq(mcpSessions.id, elicitationRecords.sessionId))
    .where(eq(elicitationRecords.flowId, flow.id))
    .limit(MAX_VARIANTS * 4);
  const seen = new Map<string, ClientVariant>();
  for (const r of rows) {
    const revision = (REVISIONS as readonly string[]).includes(r.protocolVersion) ? (r.protocolVersion as Revision) : "2025-11-25";
    // The record's own column first (every revision, the gateway's records too); the session's
    // capabilities only for rows written before that column existed (it is null on them, and a
    // 2026-07-28 record has no session). A record with neither declared no elicitation. The
    // columns are typed, but a row is what the client sent: check the shape before using it.
    const caps: { elicitation?: unknown } = r.capabilities ?? {};
    const declared = r.declared ?? caps.elicitation;
    const elicitation =
      typeof declared === "object" && declared !== null && !Array.isArray(declared) ? (declared as Record<string, unknown>) : undefined;
    const v: ClientVariant = { name: r.clientName, version: r.clientVersion, revision, elicitation };
    seen.set(JSON.stringify(v), v);
  }
  if (seen.size > 0) return { profileId: flow.profileId, source: "observed", variants: [...seen.values()].slice(0, MAX_VARIANTS) };
  const defaults = PROFILE_CLIENTS.filter((c) => c.profile === flow.profileId);
  const base = defaults.length > 0 ? defaults : [{ name: "gate-client", version: "1.0.0", capabilities: { elicitation: {} } }];
  const variants = base.flatMap((c) =>
    REVISIONS.map((revision) => ({ name: c.name, version: c.version, revision, elicitation: c.capabilities.elicitation })),
  );
  return { profileId: flow.profileId, source: "profile-default", variants: variants.slice(0, MAX_VARIANTS) };
}
