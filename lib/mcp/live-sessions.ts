// The live MCP sessions of this process, shared (through globalThis) by the MCP endpoint and the
// connect callback, which may run in another bundle of the same server process.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export interface LiveSessionRef {
  server: McpServer;
}

const holder = globalThis as typeof globalThis & { __mcpSessions?: Map<string, LiveSessionRef> };

export function liveSessions<T extends LiveSessionRef>(): Map<string, T> {
  return (holder.__mcpSessions ??= new Map()) as Map<string, T>;
}

/**
 * Tells the originating session that a URL elicitation completed. Best effort: the notification
 * rides the session's standalone stream and is lost if that stream is closed or the session lives
 * on another instance. Its loss costs nothing: a retried call reconciles from the store.
 */
export async function notifyElicitationComplete(sessionId: string | null, elicitationId: string): Promise<boolean> {
  if (!sessionId) return false;
  const live = liveSessions().get(sessionId);
  if (!live) return false;
  try {
    await live.server.server.notification({ method: "notifications/elicitation/complete", params: { elicitationId } });
    return true;
  } catch {
    return false;
  }
}
