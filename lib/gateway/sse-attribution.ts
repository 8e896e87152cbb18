// Which forwarded call an upstream's request belongs to. The SDK's client transport hands every
// message to one `onmessage` without saying which HTTP response it came on, but Streamable HTTP
// already answers the question: a server sends a request that relates to a call on the SSE stream
// of the POST that carried that call. So the gateway's fetch runs each call inside an async
// context, and when a POST made from that context returns an SSE stream it watches the stream's
// events (eventsource-parser, the parser the SDK uses) and notes the id of every request on it
// against the call, before the bytes reach the SDK. By the time the SDK dispatches the request,
// its call is known. A request on the standalone GET stream relates to no call.
import { AsyncLocalStorage } from "node:async_hooks";
import { createParser } from "eventsource-parser";

const current = new AsyncLocalStorage<object>();

/** Runs `fn` as the given call: POSTs it makes are attributed to `call`. */
export function runAsCall<T>(call: object, fn: () => Promise<T>): Promise<T> {
  return current.run(call, fn);
}

/** Runs `fn` outside any call (opening a session: its GET stream belongs to no call). */
export function runOutsideCalls<T>(fn: () => Promise<T>): Promise<T> {
  return current.exit(fn);
}

/** The call the current fetch is made for, if any. */
export function currentCall(): object | undefined {
  return current.getStore();
}

function isRequest(m: unknown): m is { id: string | number; method: string } {
  if (typeof m !== "object" || m === null) return false;
  const r = m as { id?: unknown; method?: unknown };
  return typeof r.method === "string" && (typeof r.id === "string" || typeof r.id === "number");
}

/**
 * Passes an SSE body through unchanged, calling `onRequest` with the id of every JSON-RPC request
 * in it before the chunk that completes that event is handed on.
 */
export function watchRequests(body: ReadableStream<Uint8Array>, onRequest: (id: string) => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (event) => {
      if (event.event && event.event !== "message") return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // the SDK reports a malformed event itself
      }
      for (const m of Array.isArray(message) ? message : [message]) if (isRequest(m)) onRequest(String(m.id));
    },
  });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        parser.feed(decoder.decode());
      },
    }),
  );
}
