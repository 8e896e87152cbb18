// Persists what initialize told us about an MCP session: the capability manifest exactly as sent,
// the negotiated protocol version, the client's name and version, and whose session it is.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpSessions } from "@/db/schema";
import { declaredModes } from "@/lib/elicitation/capabilities";

export interface SessionFacts {
  id: string;
  subject: string;
  tenantId: string;
  clientName: string;
  clientVersion: string;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  instanceId: string;
}

export async function recordSession(db: Db, facts: SessionFacts): Promise<void> {
  const modes = declaredModes(facts.capabilities);
  await db.insert(mcpSessions).values({ ...facts, formDeclared: modes.form, urlDeclared: modes.url });
}

export async function closeSession(db: Db, id: string): Promise<void> {
  await db.update(mcpSessions).set({ closedAt: new Date() }).where(eq(mcpSessions.id, id));
}

export async function getSession(db: Db, id: string) {
  const [row] = await db.select().from(mcpSessions).where(eq(mcpSessions.id, id)).limit(1);
  return row;
}
