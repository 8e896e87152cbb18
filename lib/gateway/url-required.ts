// An upstream's -32042 (URL elicitation required, 2025-11-25): instead of a tool result the
// upstream answers the call with an error whose data lists URL elicitations, which "counts as
// sending the elicitation"; the client opens the link(s) and may retry the original request after
// completion. The gateway does that on the person's behalf:
// - each listed URL goes through the engine like any upstream URL-mode request (bridgeElicitation:
//   URL check, the upstream's origin allowlist, policy and kill switch, the client's URL mode,
//   record, audit), so the client sees a URL-mode elicitation in its own revision (2025:
//   elicitation/create; 2026: an input_required of the gateway's) and a phishing link is refused
//   with a plain explanation and a blocked record;
// - once the person accepted every link, the gateway waits for the upstream's completion
//   notification(s) (a notification seen before the accept counts), then retries the call once on
//   the same upstream session;
// - a -32042 naming a link already asked for in this call (the retry of a known prerequisite),
//   more than MAX_URL_REQUIRED_ROUNDS of them, a declined or refused link, or no completion within
//   the elicitation timeout ends the call with a plain "Not done" saying what to do: no endless loop.
// The -32042 data is the upstream's and is validated before use (bounded count and sizes).
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { transition } from "@/lib/elicitation/records";
import { bridgeElicitation, type BridgeCall } from "./elicitation-bridge";

export const URL_ELICITATION_REQUIRED = -32042;
/** Links one -32042 may ask the person to open; a longer list is refused whole. */
export const MAX_REQUIRED_URLS = 3;
/** -32042 answers one forwarded call may get before the gateway stops retrying. */
export const MAX_URL_REQUIRED_ROUNDS = 3;

const requiredUrl = z
  .object({ mode: z.literal("url"), message: z.string().max(2000), url: z.string().max(2048), elicitationId: z.string().min(1).max(200) })
  .strip();
const requiredData = z.object({ elicitations: z.array(requiredUrl).min(1).max(MAX_REQUIRED_URLS) });

export type RequiredUrl = z.infer<typeof requiredUrl>;

/** Whether this error is a -32042 (then its data, validated, or "malformed"). */
export function urlRequiredOf(err: unknown): RequiredUrl[] | "malformed" | undefined {
  if (!(err instanceof McpError) || err.code !== URL_ELICITATION_REQUIRED) return undefined;
  const parsed = requiredData.safeParse(err.data);
  return parsed.success ? parsed.data.elicitations : "malformed";
}

/** Completion notifications an upstream sent during one forwarded call, and who waits for them. */
export class CompletionWatch {
  private readonly seen = new Set<string>();
  private readonly waiters = new Map<string, () => void>();
  /** Upstream elicitation ids already asked of the person in this call. */
  readonly asked = new Set<string>();

  /** Called for every notifications/elicitation/complete the upstream sends on this call's session. */
  completed(upstreamElicitationId: string): void {
    this.seen.add(upstreamElicitationId);
    this.waiters.get(upstreamElicitationId)?.();
  }

  wait(upstreamElicitationId: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.seen.has(upstreamElicitationId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(upstreamElicitationId);
        signal.removeEventListener("abort", abort);
        resolve(ok);
      };
      const abort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      signal.addEventListener("abort", abort, { once: true });
      this.waiters.set(upstreamElicitationId, () => done(true));
    });
  }
}

export type UrlRequiredOutcome = { kind: "retry" } | { kind: "stop"; result: CallToolResult };

/**
 * Handles one -32042 of the forwarded call: asks the person through the engine, waits for the
 * upstream's completion, and says whether to retry the call or stop with a plain result.
 */
export async function bridgeUrlRequired(
  call: BridgeCall,
  urls: RequiredUrl[] | "malformed",
  round: number,
  deps: { watch: CompletionWatch; signal: AbortSignal; exposedName: string },
): Promise<UrlRequiredOutcome> {
  const who = `${call.upstream.displayName} (${call.upstream.id})`;
  const stop = (text: string, outcome: string): UrlRequiredOutcome => ({
    kind: "stop",
    result: {
      content: [{ type: "text", text: `Not done: ${text}${call.notes.length ? " " + call.notes.join(" ") : ""}` }],
      structuredContent: { outcome, upstream: call.upstream.id },
      isError: true,
    },
  });
  if (urls === "malformed")
    return stop(
      `${who} asked for a link to be opened, but its request was malformed (at most ${MAX_REQUIRED_URLS} URL elicitations, each with a message, a URL and an id); the gateway showed nothing.`,
      "url_required_malformed",
    );
  // The same prerequisite again after the retry (the loop the spec warns of), or too many rounds.
  if (round >= MAX_URL_REQUIRED_ROUNDS || urls.some((u) => deps.watch.asked.has(u.elicitationId)))
    return stop(
      `${who} asked again for a link to be opened after the gateway retried the call; it was not asked again. Finish what the earlier link asked for, then call ${deps.exposedName} again.`,
      "url_required_repeated",
    );
  const accepted: Array<{ upstreamId: string }> = [];
  for (const u of urls) {
    deps.watch.asked.add(u.elicitationId);
    // The same path as an elicitation/create in URL mode: the record's request id names the -32042.
    const answer = await bridgeElicitation(
      call,
      { mode: "url", message: u.message, url: u.url, elicitationId: u.elicitationId },
      `-32042:${u.elicitationId}`,
    );
    if (answer.action !== "accept")
      return stop(`${who} needs a link to be opened before it can do this, and it was not opened.`, "url_required_not_opened");
    accepted.push({ upstreamId: u.elicitationId });
  }
  const timeoutMs = call.ask.config.formTimeoutMs;
  call.waiting.count++;
  try {
    for (const a of accepted) {
      if (!(await deps.watch.wait(a.upstreamId, timeoutMs, deps.signal))) {
        const recordId = call.urlIds.get(a.upstreamId);
        if (recordId)
          await transition(call.ask.db, recordId, {
            move: "upstreamSettle",
            to: "failed",
            reason: `the upstream did not report completion within ${Math.round(timeoutMs / 1000)} s`,
          });
        return stop(
          `${who} did not confirm that the link was completed. When you have finished there, call ${deps.exposedName} again.`,
          "url_required_incomplete",
        );
      }
    }
  } finally {
    call.waiting.count--;
  }
  return { kind: "retry" };
}
