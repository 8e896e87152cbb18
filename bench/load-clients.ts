// N concurrent SDK clients calling generate_report in a loop for a while, with mixed capability
// manifests (form, legacy empty `elicitation: {}`, none) and mixed answers (valid, invalid,
// decline, cancel). Every call's outcome and record id are kept so the store can be reconciled
// against what the clients saw, exactly.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";

export interface CallOutcome {
  client: number;
  subject: string;
  /** What the tool result says (`completed`, `declined`, ...), or `transport_error`. */
  outcome: string;
  record: string | null;
  /** What this client answered, when it was asked. */
  answered: "accept" | "invalid" | "decline" | "cancel" | null;
  ms: number;
  startedAt: number;
  error?: string;
}

export interface LoadOptions {
  mcpUrl: string;
  /** A token for the subject whose verified client id is `clientId` (it selects the flow). */
  token: (subject: string, clientId?: string) => Promise<string>;
  clients: number;
  durationMs: number;
  /** Prefix of every subject this run uses, so the store can be reconciled for this run only. */
  runId: string;
  /** Deterministic mix per run. */
  seed?: number;
  /** Stop early when this returns true (drills). */
  stop?: () => boolean;
}

const MANIFESTS: Array<Record<string, unknown>> = [
  { elicitation: { form: {} } },
  { elicitation: { form: {} } },
  { elicitation: {} },
  { elicitation: { form: {}, url: {} } },
  {},
];
// clientInfo name and version (observations) and the OAuth client id each client's token carries
// (seeded demo profiles, where generate_report is promoted).
const NAMES = [
  ["load-vscode", "1.101.0", "visual-studio-code"],
  ["load-claude-code", "2.0.1", "claude-code"],
  ["load-cursor", "1.4.2", "cursor"],
] as const;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function answerFor(r: number): { kind: NonNullable<CallOutcome["answered"]>; result: ElicitResult } {
  if (r < 0.6) return { kind: "accept", result: { action: "accept", content: { environment: "staging", format: "pdf" } } };
  if (r < 0.75) return { kind: "invalid", result: { action: "accept", content: { environment: "moon", format: "pdf" } } };
  if (r < 0.87) return { kind: "decline", result: { action: "decline" } };
  return { kind: "cancel", result: { action: "cancel" } };
}

async function oneClient(i: number, opts: LoadOptions, out: CallOutcome[], until: number): Promise<void> {
  const random = rng((opts.seed ?? 7) * 1000 + i);
  const subject = `${opts.runId}-u${i}`;
  const [name, version, clientId] = NAMES[i % NAMES.length]!;
  const capabilities = MANIFESTS[i % MANIFESTS.length]!;
  let pending: CallOutcome["answered"] = null;
  const connect = async () => {
    const client = new Client({ name, version }, { capabilities });
    if ("elicitation" in capabilities) {
      client.setRequestHandler(ElicitRequestSchema, async () => {
        const a = answerFor(random());
        pending = a.kind;
        return a.result;
      });
    }
    const token = await opts.token(subject, clientId);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(opts.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    return client;
  };
  let client: Client | undefined;
  while (Date.now() < until && !opts.stop?.()) {
    const startedAt = Date.now();
    const t0 = performance.now();
    pending = null;
    try {
      client ??= await connect();
      const r = await client.callTool({ name: "generate_report", arguments: {} }, undefined, { timeout: 30_000 });
      const s = (r.structuredContent ?? {}) as { outcome?: string; record?: string };
      out.push({
        client: i,
        subject,
        outcome: s.outcome ?? "unknown",
        record: s.record ?? null,
        answered: pending,
        ms: performance.now() - t0,
        startedAt,
      });
    } catch (err) {
      // A lost connection or a 503 from the endpoint: recorded, then a new session is opened.
      out.push({
        client: i,
        subject,
        outcome: "transport_error",
        record: null,
        answered: pending,
        ms: performance.now() - t0,
        startedAt,
        error: err instanceof Error ? err.message.slice(0, 200) : String(err),
      });
      await client?.close().catch(() => {});
      client = undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await client?.close().catch(() => {});
}

export async function runLoad(opts: LoadOptions): Promise<{ calls: CallOutcome[]; elapsedMs: number }> {
  const calls: CallOutcome[] = [];
  const t0 = performance.now();
  const until = Date.now() + opts.durationMs;
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => oneClient(i, opts, calls, until)));
  return { calls, elapsedMs: performance.now() - t0 };
}
