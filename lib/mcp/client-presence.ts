// Knows when a client has gone away, so the elicitations it left pending end at once instead of
// waiting for their timeout (issue 19). Two signals per session: the session's own (aborted when
// the client ends the session with DELETE, the session is evicted as idle, or its transport
// closes) and one per originating request (aborted when the HTTP response carrying that request
// closes before it finished: the client dropped the stream or its socket died).
import type http from "node:http";

export interface ClientPresence {
  /** The signal for one originating request of this session: the call's and the session's. */
  signal(requestId: string | number): AbortSignal;
  /** Watches the response carrying these request ids; an unfinished close aborts them. */
  watch(requestIds: Array<string | number>, res: http.ServerResponse): void;
  /** The session is over: every pending request of it is aborted. */
  end(): void;
}

/** The ids of the requests (not notifications or responses) in a POST body. */
export function requestIdsOf(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Array<string | number> = [];
  for (const m of messages) {
    if (!m || typeof m !== "object" || typeof (m as { method?: unknown }).method !== "string" || !Object.hasOwn(m, "id")) continue;
    const id = (m as { id: unknown }).id;
    if (typeof id === "string" || typeof id === "number") ids.push(id);
  }
  return ids;
}

export function clientPresence(): ClientPresence {
  const session = new AbortController();
  const calls = new Map<string, AbortController>();
  const callFor = (id: string | number) => {
    const key = `${typeof id}:${id}`;
    let c = calls.get(key);
    if (!c) calls.set(key, (c = new AbortController()));
    return { key, controller: c };
  };
  return {
    signal(requestId) {
      return AbortSignal.any([session.signal, callFor(requestId).controller.signal]);
    },
    watch(requestIds, res) {
      if (requestIds.length === 0) return;
      const watched = requestIds.map(callFor);
      res.once("close", () => {
        // Finished: the answer was delivered. Not finished: the client is gone from these calls.
        for (const { key, controller } of watched) {
          if (!res.writableFinished) controller.abort("client_disconnected");
          calls.delete(key);
        }
      });
    },
    end() {
      session.abort("client_disconnected");
      calls.clear();
    },
  };
}
