// The 2026-07-28 wire adapter (multi-round-trip requests). There is no server-to-client request in
// this revision: an ask ends the call (WireSuspendedError; lib/mcp/modern/call-workflow.ts turns
// it into an `input_required` result with a sealed requestState), and the client's retry brings
// the answer. `resumed()` hands that answer back to the engine once, for the need and record the
// verified state names, so the engine continues at that record instead of asking again.
import { WireCapabilityMissingError, WireSuspendedError, type ResumedAnswer, type WireAdapter } from "@/lib/elicitation/wire";

export function wire20260728(resume: ResumedAnswer | undefined): WireAdapter {
  let pending = resume;
  return {
    askForm(params, options) {
      return Promise.reject(new WireSuspendedError({ kind: "form", ...options.step, params }));
    },
    askUrl(params, options) {
      // No elicitationId on this revision's wire: the record id travels inside the sealed state.
      return Promise.reject(new WireSuspendedError({ kind: "url", ...options.step, params: { message: params.message, url: params.url } }));
    },
    unavailable(ask) {
      throw new WireCapabilityMissingError(ask);
    },
    resumed(kind, needKey) {
      if (!pending || pending.kind !== kind || pending.needKey !== needKey) return undefined;
      const answer = pending;
      pending = undefined;
      return answer;
    },
  };
}
