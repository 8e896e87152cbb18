// What the upstreams page shows about each upstream: whether the last contact from this instance
// reached it, how many tools it listed, how long it took, the last error and the MCP revision it speaks (kept in memory per
// instance: a restart forgets it and the next contact refills it). Outcome counts come from the
// store (lib/gateway/queries.ts), so they are the same on every instance.
export interface Contact {
  ok: boolean;
  latencyMs: number;
  tools?: number;
  error?: string;
  /** The MCP revision the upstream was found to speak (upstream-era.ts). */
  revision?: string;
  /** What the gateway cut from the upstream's tool list (tool-list-bounds.ts); null: nothing. Set by listings only. */
  notice?: string | null;
}

export interface Health {
  reachable: boolean | null;
  tools: number | null;
  latencyMs: number | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  checkedAt: Date | null;
  revision: string | null;
  /** The last listing's note on what was cut from the tool list, or null. */
  toolsNotice: string | null;
}

const health = new Map<string, Health>();

export function recordContact(id: string, c: Contact): void {
  const before = health.get(id);
  health.set(id, {
    reachable: c.ok,
    tools: c.tools ?? before?.tools ?? null,
    latencyMs: Math.round(c.latencyMs),
    lastError: c.ok ? (before?.lastError ?? null) : (c.error ?? "failed"),
    lastErrorAt: c.ok ? (before?.lastErrorAt ?? null) : new Date(),
    checkedAt: new Date(),
    revision: c.revision ?? before?.revision ?? null,
    toolsNotice: c.notice !== undefined ? c.notice : (before?.toolsNotice ?? null),
  });
}

export function healthOf(id: string): Health {
  return (
    health.get(id) ?? {
      reachable: null,
      tools: null,
      latencyMs: null,
      lastError: null,
      lastErrorAt: null,
      checkedAt: null,
      revision: null,
      toolsNotice: null,
    }
  );
}
