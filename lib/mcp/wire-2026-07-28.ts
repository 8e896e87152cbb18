// The 2026-07-28 wire adapter (multi-round-trip requests). There is no server-to-client request in
// this revision: an ask ends the call (WireSuspendedError; lib/mcp/modern/call-workflow.ts turns
// it into an `input_required` result with a sealed requestState), and the client's retry brings
// the answer. `resumed()` hands that answer back to the engine once, for the need and record the
// verified state names, so the engine continues at that record instead of asking again.
//
// A workflow with two needs in sequence: each round re-runs it from the start, so the answer to the
// first need must come back too, or the workflow would ask it again for ever. The revision keeps no
// session and the store keeps no values, so an answer settled in this call is carried forward in
// the next round's sealed requestState (AES-256-GCM: the client holds it but cannot read or change
// it) and handed back as `settled` when the workflow reaches that need again. The spec's own
// multi-round pattern (a new requestState per round, carrying the server's progress) allows exactly
// this; asking for both at once would not work when the second question depends on the first answer.
import {
  WireCapabilityMissingError,
  WireSuspendedError,
  type CarriedAnswer,
  type ResumedAnswer,
  type WireAdapter,
} from "@/lib/elicitation/wire";

export function wire20260728(resume: ResumedAnswer | undefined): WireAdapter {
  let pending = resume;
  const earlier = new Map((resume?.carried ?? []).map((c) => [c.needKey, c]));
  // Answers settled during this run, earlier rounds' included: what the next round's state carries.
  const settled = new Map<string, CarriedAnswer>();
  const carried = () => [...settled.values()];
  return {
    askForm(params, options) {
      return Promise.reject(new WireSuspendedError({ kind: "form", ...options.step, params, carried: carried() }));
    },
    askUrl(params, options) {
      // No elicitationId on this revision's wire: the record id travels inside the sealed state.
      return Promise.reject(
        new WireSuspendedError({ kind: "url", ...options.step, params: { message: params.message, url: params.url }, carried: carried() }),
      );
    },
    settled(answer) {
      settled.set(answer.needKey, answer);
    },
    unavailable(ask) {
      throw new WireCapabilityMissingError(ask);
    },
    resumed(kind, needKey) {
      const before = kind === "form" ? earlier.get(needKey) : undefined;
      if (before) {
        earlier.delete(needKey);
        return { kind: "settled", recordId: before.recordId, needKey, content: before.content };
      }
      if (!pending || pending.kind !== kind || pending.needKey !== needKey) return undefined;
      const answer = pending;
      pending = undefined;
      return answer;
    },
  };
}
