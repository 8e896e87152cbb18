// The engine's one "ask the user" step is independent of the wire. A wire adapter turns it into a
// protocol message: for 2025-11-25 an `elicitation/create` request tied to the originating
// tools/call; an MRTR adapter (2026-07-28) would turn it into `inputRequests` instead.
import type { FormSchema } from "./needs";

export interface FormAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export class WireTimeoutError extends Error {
  override name = "WireTimeoutError";
}

export class WireAbortedError extends Error {
  override name = "WireAbortedError";
}

/**
 * The client went away while the request was pending: the stream carrying the originating call
 * closed, the client ended its session (DELETE), or the session was evicted as idle. Not a person's
 * cancel: recorded as `cancelled` with the reason CLIENT_DISCONNECTED.
 */
export class WireDisconnectedError extends WireAbortedError {
  override name = "WireDisconnectedError";
}

/** The event reason of a record cancelled because its client went away (issue 19). */
export const CLIENT_DISCONNECTED = "client_disconnected";

export class WireRefusedError extends Error {
  override name = "WireRefusedError";
  constructor(readonly code: number) {
    super(`client refused the request (JSON-RPC ${code})`);
  }
}

export interface UrlAnswer {
  action: "accept" | "decline" | "cancel";
  /** A URL-mode result carries no content; if a client sent some anyway, it was dropped. */
  droppedContent: boolean;
}

export interface WireAdapter {
  /** Sends a form elicitation and waits for the answer. Throws the Wire* errors above. */
  askForm(params: { message: string; requestedSchema: FormSchema }, options: { timeoutMs: number }): Promise<FormAnswer>;
  /** Sends a URL elicitation; `accept` means only that the user agreed to open the link. */
  askUrl(params: { message: string; elicitationId: string; url: string }, options: { timeoutMs: number }): Promise<UrlAnswer>;
}
