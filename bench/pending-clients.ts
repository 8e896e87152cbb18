// Issue 19's capacity and clean-up run: N distinct users each leave one form elicitation pending
// (the client is asked and never answers), then half drop off abruptly (every socket destroyed)
// and half end their sessions (HTTP DELETE). Measured on the server: its memory before, with all
// N pending, and after; the latency of another user's calls while the N wait; how long after the
// last disconnect the last of the run's records left the in-flight states. Then the store is
// checked: every record of the run is `cancelled` with the reason client_disconnected (not a
// person's cancel, not a timeout) and the hourly rollup equals a fresh aggregate of the records.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { CLIENT_DISCONNECTED } from "@/lib/elicitation/wire";
import { rollupDrift } from "@/lib/metrics/rollup-check";
import { socketFetch } from "./http-fetch";
import { percentile, round } from "./stats";

export interface PendingRunOptions {
  mcpUrl: string;
  token: (subject: string) => Promise<string>;
  clients: number;
  /** Prefix of every subject of the run. */
  runId: string;
  /** The server's resident memory now, in bytes. */
  serverRss: () => number;
  /** Reads the store (the run's records); the server keeps running meanwhile. */
  db: Db;
  /** How long after the last disconnect the run's records must have left the in-flight states. */
  settleMs?: number;
  /** A first round of the same shape before the measured one (default true): see below. */
  warmupRound?: boolean;
  /** How long to wait for the run's sessions to be closed (idle eviction of the dropped ones). */
  sessionWaitMs?: number;
  /** How long to wait for the server's memory to come back within 10% of its pre-run level. */
  memoryWaitMs?: number;
  log?: (line: string) => void;
}

export interface PendingRunReport {
  clients: number;
  /** Records checked in the store: clients x rounds (the warm-up round included). */
  records: number;
  pendingAtOnce: number;
  /** Before any pending ask (after the other user's warm-up calls). */
  rssColdMb: number;
  /** After the warm-up round: the level the measured round must come back to. */
  rssBeforeMb: number;
  rssPendingMb: number;
  rssAfterMb: number;
  kbPerPending: number;
  /** Another user's calls (answered at once) while the N wait. */
  otherCallsMs: { p50: number; p99: number; calls: number };
  otherCallsIdleMs: { p50: number; p99: number; calls: number };
  /** From the last disconnect until none of the run's records was in flight (polled). */
  settledMs: number | null;
  inFlightLeft: number;
  memoryBackWithin10Percent: boolean;
  byState: Record<string, number>;
  disconnectedReasons: number;
  rollupDrift: number;
  sessionsStillOpen: number;
  problems: string[];
}

const IN_FLIGHT = ["created", "sent", "accepted", "opened"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Pending {
  client: Client;
  transport: StreamableHTTPClientTransport;
  destroySockets: () => void;
  call: Promise<unknown>;
}

async function leaveOnePending(opts: PendingRunOptions, prefix: string, i: number): Promise<Pending> {
  const net = socketFetch();
  const token = await opts.token(`${prefix}${i}`);
  const client = new Client({ name: "pending-drill", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  let asked!: () => void;
  const wasAsked = new Promise<void>((r) => (asked = r));
  // Asked, and never answers: the person walked away from the form.
  client.setRequestHandler(ElicitRequestSchema, () => (asked(), new Promise<ElicitResult>(() => {})));
  const transport = new StreamableHTTPClientTransport(new URL(opts.mcpUrl), {
    fetch: net.fetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  // The call ends only when the client goes away (its transport errors then): swallowed.
  const call = client.callTool({ name: "generate_report", arguments: {} }, undefined, { timeout: 3_600_000 }).catch(() => undefined);
  await wasAsked;
  return { client, transport, destroySockets: net.destroySockets, call };
}

async function timedCalls(client: Client, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await client.callTool({ name: "generate_report", arguments: {} });
    out.push(performance.now() - t0);
    if (r.isError) throw new Error(`other user's call failed: ${JSON.stringify(r.content).slice(0, 200)}`);
  }
  return out;
}

async function inFlight(db: Db, prefix: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from elicitation_records where subject like ${`${prefix}%`} and state::text in (${sql.join(
        IN_FLIGHT.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    ),
  );
  return Number(row!.n);
}

/** Runs in batches of `parallel` so the set-up itself does not flood the 2-core machine. */
async function inBatches<T>(n: number, parallel: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += parallel)
    out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, k) => make(i + k)))));
  return out;
}

interface RoundResult<D> {
  pendingAtOnce: number;
  left: number;
  settledMs: number | null;
  during?: D;
}

/** N pending, `during` measured while they wait, then half drop their sockets and half DELETE. */
async function pendingRound<D>(
  opts: PendingRunOptions,
  prefix: string,
  problems: string[],
  during?: () => Promise<D>,
): Promise<RoundResult<D>> {
  const pending = await inBatches(opts.clients, 25, (i) => leaveOnePending(opts, prefix, i));
  const pendingAtOnce = await inFlight(opts.db, prefix);
  if (pendingAtOnce !== opts.clients)
    problems.push(`${pendingAtOnce} of ${opts.clients} records in flight while every client was waiting (${prefix})`);
  const measured = during ? await during() : undefined;
  await Promise.all(
    pending.map(async (p, i) => {
      if (i % 2 === 0) {
        p.destroySockets();
      } else {
        await p.transport.terminateSession();
        p.destroySockets();
      }
    }),
  );
  const lastDisconnect = performance.now();
  const settleMs = opts.settleMs ?? 5_000;
  let left = await inFlight(opts.db, prefix);
  while (left > 0 && performance.now() - lastDisconnect < settleMs) {
    await sleep(100);
    left = await inFlight(opts.db, prefix);
  }
  const settledMs = left === 0 ? performance.now() - lastDisconnect : null;
  if (left > 0) problems.push(`${left} records (${prefix}) still in flight ${settleMs} ms after the last disconnect`);
  await Promise.all(pending.map((p) => p.client.close().catch(() => {})));
  return { pendingAtOnce, left, settledMs, during: measured };
}

export async function runPendingDisconnect(opts: PendingRunOptions): Promise<PendingRunReport> {
  const log = opts.log ?? (() => {});
  const problems: string[] = [];
  // Another user, answering at once: the latency of ordinary calls, idle and with N waiting. Its
  // warm-up also loads everything a call needs, so the "before" memory is the warm server's.
  // A session of its own each time: a drill with a short idle time must not evict it in between.
  const otherCalls = async (warm: number, n: number) => {
    const other = new Client({ name: "other-user", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    other.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { environment: "staging", format: "pdf" } }));
    await other.connect(
      new StreamableHTTPClientTransport(new URL(opts.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${await opts.token(`${opts.runId}-other`)}` } },
      }),
    );
    try {
      await timedCalls(other, warm);
      return await timedCalls(other, n);
    } finally {
      await other.close();
    }
  };
  const idle = await otherCalls(20, 50);

  // A warm-up round of the same shape first: the heap, code and connection pools a server grows
  // to for N sessions are its working size, not a leak. "Before" is measured after it, so the
  // measured round must give back what it took: a leak of the whole per-pending cost (about 60 KB)
  // would exceed the 10% margin at N = 1,000. The cost per pending ask is read off the first round
  // (cold server to N waiting).
  const rssCold = opts.serverRss();
  let rssFirstPending = 0;
  if (opts.warmupRound ?? true) {
    log(`warm-up round: ${opts.clients} pending, then gone...`);
    await pendingRound(opts, `${opts.runId}-w-p`, problems, async () => (rssFirstPending = opts.serverRss()));
  }
  const rssBefore = opts.serverRss();
  log(`measured round: ${opts.clients} form elicitations pending...`);
  const round1 = await pendingRound(opts, `${opts.runId}-p`, problems, async () => ({
    busy: await otherCalls(5, 50),
    rss: opts.serverRss(),
  }));
  const { busy, rss: rssPending } = round1.during!;
  const { pendingAtOnce, left, settledMs } = round1;

  // A client whose socket died may come back to its session (the protocol allows resuming), so
  // the server keeps that session, without the aborted calls, until it is evicted as idle
  // (MCP_SESSION_IDLE_SECONDS; the drill sets a short one). Memory is compared once they are gone.
  const openSessions = async () =>
    Number(
      rowsOf<{ n: number }>(
        await opts.db.execute(
          sql`select count(*)::int as n from mcp_sessions where subject like ${`${opts.runId}-%`} and closed_at is null`,
        ),
      )[0]!.n,
    );
  const sessionWaitMs = opts.sessionWaitMs ?? 60_000;
  const ts = performance.now();
  let open = await openSessions();
  while (open > 0 && performance.now() - ts < sessionWaitMs) {
    await sleep(500);
    open = await openSessions();
  }
  if (open > 0)
    problems.push(
      `${open} sessions of the run still open ${sessionWaitMs} ms after the last disconnect (is MCP_SESSION_IDLE_SECONDS short enough for this run?)`,
    );

  // Memory: released objects come back as V8 collects; polled, not timed.
  const memoryWaitMs = opts.memoryWaitMs ?? 60_000;
  const t = performance.now();
  let rssAfter = opts.serverRss();
  while (rssAfter > rssBefore * 1.1 && performance.now() - t < memoryWaitMs) {
    await sleep(500);
    rssAfter = opts.serverRss();
  }
  const memoryBack = rssAfter <= rssBefore * 1.1;
  if (!memoryBack)
    problems.push(`server RSS ${round(rssAfter / 2 ** 20, 1)} MB did not come back within 10% of ${round(rssBefore / 2 ** 20, 1)} MB`);

  // The store: every record of the run cancelled for the right reason, and the rollup exact.
  const byState: Record<string, number> = {};
  for (const r of rowsOf<{ state: string; n: number }>(
    await opts.db.execute(
      sql`select state::text as state, count(*)::int as n from elicitation_records where subject like ${`${opts.runId}-%p%`} and subject <> ${`${opts.runId}-other`} group by 1`,
    ),
  ))
    byState[r.state] = Number(r.n);
  const expected = opts.clients * ((opts.warmupRound ?? true) ? 2 : 1);
  const total = Object.values(byState).reduce((a, b) => a + b, 0);
  if (total !== expected) problems.push(`${total} records for ${expected} pending asks (one each expected)`);
  if ((byState.cancelled ?? 0) !== expected)
    problems.push(`records by state ${JSON.stringify(byState)}: all ${expected} should be cancelled`);
  const [reasons] = rowsOf<{ n: number }>(
    await opts.db.execute(sql`select count(*)::int as n from elicitation_events e join elicitation_records r on r.id = e.record_id
      where r.subject like ${`${opts.runId}-%p%`} and r.subject <> ${`${opts.runId}-other`} and e.to_state = 'cancelled' and e.reason = ${CLIENT_DISCONNECTED}`),
  );
  const disconnectedReasons = Number(reasons!.n);
  if (disconnectedReasons !== expected)
    problems.push(`${disconnectedReasons} of ${expected} cancellations carry the reason ${CLIENT_DISCONNECTED}`);
  const drift = await rollupDrift(opts.db);
  if (drift.length > 0) problems.push(`rollup differs from the records: ${JSON.stringify(drift.slice(0, 3))}`);

  const mb = (b: number) => round(b / 2 ** 20, 1);
  const stats = (s: number[]) => ({ p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), calls: s.length });
  return {
    clients: opts.clients,
    records: total,
    pendingAtOnce,
    rssBeforeMb: mb(rssBefore),
    rssPendingMb: mb(rssPending),
    rssAfterMb: mb(rssAfter),
    rssColdMb: mb(rssCold),
    kbPerPending: round(((rssFirstPending || rssPending) - (rssFirstPending ? rssCold : rssBefore)) / 1024 / opts.clients, 1),
    otherCallsMs: stats(busy),
    otherCallsIdleMs: stats(idle),
    settledMs: settledMs === null ? null : round(settledMs, 0),
    inFlightLeft: left,
    memoryBackWithin10Percent: memoryBack,
    byState,
    disconnectedReasons,
    rollupDrift: drift.length,
    sessionsStillOpen: open,
    problems,
  };
}
