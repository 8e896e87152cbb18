// Upstream sessions kept open between forwarded calls. Opening one costs initialize, initialized,
// the standalone GET stream and a DELETE at the end: several round trips that made a forwarded call
// about ten times slower than a direct one. A pooled session is keyed by (upstream, subject, tenant,
// OAuth client): the upstream binds what it does to the person its identity assertion names, so a
// session is never shared between people, tenants or clients.
// - The assertion and the gateway's credential are put on every HTTP request by the session's
//   fetch (a fresh one-minute assertion each time), so a long-lived session never carries an
//   expired or replayable-for-long identity, and a refreshed OAuth token is used as soon as it
//   exists; a client-credentials token the upstream refuses (401) is replaced once.
// - A session is handed out only while the registry row it was opened under is unchanged (URL,
//   auth, tenants, exposed tools, origins, name; a removed-and-re-added row counts as changed), and
//   is dropped on any transport error, any failed call, when idle for `idleMs`, when older than
//   `maxAgeMs` (once its last call ends), and at once when this instance changes or removes its row.
// - Bounded: at `maxSessions` the least recently used idle session is closed; if none is idle, the
//   call gets a session of its own, closed after it, as before pooling.
// - Elicitations the upstream sends reach the call they belong to (sse-attribution.ts), even with
//   several calls of the same person in flight on one session.
import canonicalize from "canonicalize";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Upstream } from "@/db/schema";
import { logger } from "@/lib/log/logger";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { poolConfig, type PoolConfig } from "./gateway-config";
import { IDENTITY_HEADER, signIdentityAssertion, type AssertedIdentity } from "./identity-assertion";
import { authOf } from "./registry";
import { onUpstreamChanged } from "./registry-events";
import { currentCall, runAsCall, runOutsideCalls, watchRequests } from "./sse-attribution";
import { renewableAfterRefusal, upstreamAuthHeaders } from "./upstream-auth";
import { CONNECT_TIMEOUT_MS, type ElicitHandler } from "./upstream-client";

/** What one forwarded call wants to hear from its session. */
export interface CallHandlers {
  elicit?: ElicitHandler;
  completed?: (elicitationId: string) => void;
  /** A transport error on the session (which may or may not end this call). */
  transportError?: (err: Error) => void;
}

export interface Lease {
  client: Client;
  /** Whether the session was already open (a stale one may answer 404: the caller may retry once). */
  reused: boolean;
  /** Runs the call so that the upstream's requests on its stream are routed to it. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Ends the lease; `broken` drops the session (any error on the call). */
  release(opts?: { broken?: boolean }): Promise<void>;
}

interface Call extends CallHandlers {
  id: number;
}

interface Entry {
  key: string;
  upstreamId: string;
  fingerprint: string;
  client: Client;
  transport: StreamableHTTPClientTransport;
  createdAt: number;
  lastUsed: number;
  calls: Set<Call>;
  /** The upstream's request id -> the call whose stream it arrived on. */
  routes: Map<string, Call>;
  /** No new calls: changed row, error, too old. Closed when its last call ends. */
  retired: boolean;
  pooled: boolean;
}

/** Everything about a row that must match for a pooled session to be reused. */
export function rowFingerprint(row: Upstream): string {
  return canonicalize({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    displayName: row.displayName,
    url: row.url,
    authKind: row.authKind,
    auth: row.auth,
    tenants: row.tenants,
    exposedTools: row.exposedTools,
    urlOrigins: row.urlOrigins,
  })!;
}

function keyOf(who: AssertedIdentity): string {
  // JSON, so no value can smuggle a separator into another's part of the key.
  return JSON.stringify([who.upstreamId, who.subject, who.tenant, who.clientId]);
}

export class UpstreamPool {
  /** The pooled session of each key (opening or open); retired sessions leave this map at once. */
  private readonly entries = new Map<string, { opening: Promise<Entry>; entry?: Entry }>();
  private readonly live = new Set<Entry>();
  private nextCall = 0;

  constructor(
    private readonly config: () => PoolConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** A session for this person at this upstream, opened or reused. */
  async acquire(row: Upstream, who: AssertedIdentity, handlers: CallHandlers): Promise<Lease> {
    const cfg = this.config();
    const key = keyOf(who);
    const fingerprint = rowFingerprint(row);
    let reused = false;
    let entry: Entry | undefined;
    const existing = this.entries.get(key);
    if (existing) {
      const e = await existing.opening.catch(() => undefined);
      // Pooling turned off since (maxSessions 0) counts too: the pooled session is not handed out.
      if (e && !e.retired && cfg.maxSessions > 0 && e.fingerprint === fingerprint && this.now() - e.createdAt < cfg.maxAgeMs) {
        entry = e;
        reused = true;
      } else if (e) this.retire(e, e.fingerprint !== fingerprint ? "registry row changed" : "too old or pooling off");
    }
    if (!entry) {
      const pooled = cfg.maxSessions > 0 && (this.poolSize() < cfg.maxSessions || this.evictLeastRecentlyUsed());
      const opening = this.open(row, who, fingerprint, key, pooled);
      if (pooled) {
        const slot: { opening: Promise<Entry>; entry?: Entry } = { opening };
        this.entries.set(key, slot);
        opening.then(
          (e) => void (slot.entry = e),
          () => {
            if (this.entries.get(key) === slot) this.entries.delete(key);
          },
        );
      }
      entry = await opening;
    }
    return this.lease(entry, handlers, reused);
  }

  private lease(entry: Entry, handlers: CallHandlers, reused: boolean): Lease {
    const call: Call = { ...handlers, id: ++this.nextCall };
    entry.calls.add(call);
    entry.lastUsed = this.now();
    let released = false;
    return {
      client: entry.client,
      reused,
      run: (fn) => runAsCall(call, fn),
      release: async (opts) => {
        if (released) return;
        released = true;
        entry.calls.delete(call);
        for (const [id, c] of entry.routes) if (c === call) entry.routes.delete(id);
        entry.lastUsed = this.now();
        if (opts?.broken) this.retire(entry, "the call failed");
        if (!entry.pooled || (entry.retired && entry.calls.size === 0) || this.now() - entry.createdAt >= this.config().maxAgeMs) {
          entry.retired = true;
          if (entry.calls.size === 0) await this.close(entry);
        }
      },
    };
  }

  private async open(row: Upstream, who: AssertedIdentity, fingerprint: string, key: string, pooled: boolean): Promise<Entry> {
    const auth = authOf(row);
    const client = new Client(
      { name: "elicitation-gateway", version: SERVER_VERSION },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    const entry: Entry = {
      key,
      upstreamId: row.id,
      fingerprint,
      client,
      transport: undefined as never,
      createdAt: this.now(),
      lastUsed: this.now(),
      calls: new Set(),
      routes: new Map(),
      retired: false,
      pooled,
    };
    // The gateway's credential and a fresh assertion on every request; the client's token never.
    const send = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(await upstreamAuthHeaders(row.id, auth))) headers.set(name, value);
      headers.set(IDENTITY_HEADER, await signIdentityAssertion(who));
      return fetch(url, { ...init, headers });
    };
    const sessionFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      let res = await send(url, init);
      // A token refused before its expiry (revoked, keys rotated): one fresh grant, one more try.
      // The body is a JSON string the SDK built, so it can be sent again.
      if (res.status === 401 && (init?.body === undefined || typeof init.body === "string") && renewableAfterRefusal(row.id, auth)) {
        await res.body?.cancel();
        res = await send(url, init);
      }
      const call = currentCall() as Call | undefined;
      if (!call || init?.method !== "POST" || !res.body || !res.headers.get("content-type")?.includes("text/event-stream")) return res;
      const body = watchRequests(res.body, (id) => void entry.routes.set(id, call));
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    const transport = new StreamableHTTPClientTransport(new URL(row.url), { requestInit: { redirect: "error" }, fetch: sessionFetch });
    entry.transport = transport;
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      const id = String(extra.requestId);
      const routed = entry.routes.get(id);
      entry.routes.delete(id);
      // Not on a call's stream (the GET stream): only unambiguous with exactly one call in flight,
      // and that call is this same person's. Otherwise nobody is asked and the upstream gets a decline.
      const call = routed ?? (entry.calls.size === 1 ? [...entry.calls][0] : undefined);
      if (!call?.elicit) {
        logger.warn(
          { event: "gateway.elicitation_unrouted", upstream: entry.upstreamId, calls: entry.calls.size },
          "an upstream elicitation matched no call in flight; declined",
        );
        return { action: "decline" };
      }
      return call.elicit(req.params, id);
    });
    // Ids the call does not know are ignored by it (the spec asks clients to ignore unknown ids).
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      for (const c of entry.calls) c.completed?.(n.params.elicitationId);
    });
    client.onerror = (err) => {
      this.retire(entry, "transport error");
      for (const c of entry.calls) c.transportError?.(err);
    };
    client.onclose = () => this.retire(entry, "closed");
    try {
      await runOutsideCalls(() => client.connect(transport, { timeout: CONNECT_TIMEOUT_MS }));
    } catch (err) {
      // Half-open (e.g. initialized but its GET stream refused): nothing of it is kept.
      entry.retired = true;
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
      throw err;
    }
    this.live.add(entry);
    return entry;
  }

  /** No new calls on this session; closed as soon as it has none in flight. */
  private retire(entry: Entry, why: string): void {
    if (!entry.retired) logger.debug({ event: "gateway.session_retired", upstream: entry.upstreamId, why }, "upstream session retired");
    entry.retired = true;
    if (this.entries.get(entry.key)?.entry === entry) this.entries.delete(entry.key);
    if (entry.calls.size === 0) void this.close(entry);
  }

  private async close(entry: Entry): Promise<void> {
    if (!this.live.delete(entry)) return;
    // Ends the upstream session (DELETE) so the upstream holds nothing for it.
    await entry.transport.terminateSession().catch(() => {});
    await entry.client.close().catch(() => {});
  }

  private poolSize(): number {
    return this.entries.size;
  }

  private evictLeastRecentlyUsed(): boolean {
    let oldest: Entry | undefined;
    for (const e of this.live) if (e.pooled && !e.retired && e.calls.size === 0 && (!oldest || e.lastUsed < oldest.lastUsed)) oldest = e;
    if (!oldest) return false;
    this.retire(oldest, "pool full");
    return true;
  }

  /** Closes idle and too-old sessions (called on a timer; tests call it with their own clock). */
  sweep(): void {
    const cfg = this.config();
    const now = this.now();
    for (const e of this.live) {
      if (e.calls.size > 0) continue;
      if (e.retired || now - e.lastUsed >= cfg.idleMs || now - e.createdAt >= cfg.maxAgeMs) this.retire(e, "idle or too old");
    }
  }

  /** Drops every session of an upstream (its row changed or was removed on this instance). */
  evictUpstream(upstreamId: string): void {
    for (const e of this.live) if (e.upstreamId === upstreamId) this.retire(e, "registry row changed");
  }

  /** Open sessions, for tests and the console: never who they belong to beyond the upstream. */
  stats(): { open: number; inFlight: number; byUpstream: Record<string, number> } {
    const byUpstream: Record<string, number> = {};
    let inFlight = 0;
    for (const e of this.live) {
      byUpstream[e.upstreamId] = (byUpstream[e.upstreamId] ?? 0) + 1;
      inFlight += e.calls.size;
    }
    return { open: this.live.size, inFlight, byUpstream };
  }

  /** Closes everything (shutdown, tests). */
  async closeAll(): Promise<void> {
    this.entries.clear();
    await Promise.all([...this.live].map((e) => ((e.retired = true), this.close(e))));
  }
}

let shared: UpstreamPool | undefined;

/** This instance's pool, swept on an unreferenced timer and told of registry changes. */
export function upstreamPool(): UpstreamPool {
  if (!shared) {
    const pool = new UpstreamPool(() => poolConfig());
    const every = Math.max(1000, Math.min(10_000, poolConfig().idleMs / 2));
    setInterval(() => pool.sweep(), every).unref();
    onUpstreamChanged((id) => pool.evictUpstream(id));
    shared = pool;
  }
  return shared;
}
