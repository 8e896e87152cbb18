// The engine's one "ask the user" step is independent of the wire. A wire adapter turns it into a
// protocol message:
// - 2025-11-25 (lib/mcp/wire-2025-11-25.ts): an `elicitation/create` request tied to the
//   originating tools/call, awaited in the same call;
// - 2026-07-28 (lib/mcp/modern/wire-2026-07-28.ts): multi-round-trip. The ask ends the call
//   (WireSuspendedError becomes an `input_required` result with a sealed requestState); the
//   client's retry carries the answer, and the adapter hands it back through `resumed()`, so the
//   engine continues at the same record instead of writing a new one.
import type { ElicitationRecord } from "@/db/schema";
import type { FormSchema } from "./needs";

export interface FormAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** The stateless, multi-round-trip revision; its records carry this protocol_version. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

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

/**
 * The event reason, and the record's end reason, of a record cancelled because its client went away
 * (issue 19). One of the schema's `end_reason` values.
 */
export const CLIENT_DISCONNECTED = "client_disconnected" as const satisfies NonNullable<ElicitationRecord["endReason"]>;

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

/** Which record and which need an ask belongs to: what a multi-round-trip wire binds its state to. */
export interface AskStep {
  recordId: string;
  needKey: string;
}

/**
 * A form answer this call already settled (validated, its record completed) in an earlier round of
 * the same multi-round-trip call. 2026-07-28 keeps no session, so a workflow with a second need
 * gets its first answer back from the sealed requestState, never from the store (which holds no
 * values). Re-validated, never re-recorded, when the workflow reaches that need again.
 */
export interface CarriedAnswer {
  needKey: string;
  recordId: string;
  content: Record<string, unknown>;
}

export type SuspendedAsk =
  | (AskStep & { kind: "form"; params: { message: string; requestedSchema: FormSchema }; carried?: CarriedAnswer[] })
  | (AskStep & { kind: "url"; params: { message: string; url: string }; carried?: CarriedAnswer[] });

/**
 * Thrown by a multi-round-trip wire instead of waiting: the call ends here and the answer arrives
 * in a later request. The record stays `sent`; the engine and workflows let it pass untouched.
 */
export class WireSuspendedError extends Error {
  override name = "WireSuspendedError";
  constructor(readonly ask: SuspendedAsk) {
    super("the answer arrives in a later request");
  }
}

/**
 * Thrown by a wire that can name the capability a client lacks (2026-07-28: error -32021) when
 * the router found no way to ask this client and the flow offers no way round. The record says
 * so (`not_sent`, fallback) exactly as in the other era.
 */
export class WireCapabilityMissingError extends Error {
  override name = "WireCapabilityMissingError";
  constructor(readonly ask: SuspendedAsk) {
    super("the client declared no capability this ask needs");
  }
}

/** Errors a wire uses to end the call itself; they pass through the engine and the workflows. */
export function endsCallOnWire(err: unknown): err is WireSuspendedError | WireCapabilityMissingError {
  return err instanceof WireSuspendedError || err instanceof WireCapabilityMissingError;
}

/** `carried`: answers settled in earlier rounds of the same call, from the verified sealed state. */
export type ResumedAnswer =
  | (AskStep & { kind: "form"; answer: FormAnswer; carried?: CarriedAnswer[] })
  | (AskStep & { kind: "url"; answer: UrlAnswer; carried?: CarriedAnswer[] });

/** What the wire hands the engine for a need: a fresh answer to settle, or one settled in an earlier round. */
export type ResumedFor = ResumedAnswer | (AskStep & { kind: "settled"; content: Record<string, unknown> });

export interface WireAdapter {
  /** Sends a form elicitation and waits for the answer. Throws the Wire* errors above. */
  askForm(params: { message: string; requestedSchema: FormSchema }, options: { timeoutMs: number; step: AskStep }): Promise<FormAnswer>;
  /** Sends a URL elicitation; `accept` means only that the user agreed to open the link. */
  askUrl(
    params: { message: string; elicitationId: string; url: string },
    options: { timeoutMs: number; step: AskStep },
  ): Promise<UrlAnswer>;
  /**
   * The answer this request carries for an earlier ask of the same need (multi-round-trip only):
   * its record id comes from verified, sealed state, never from the client's say-so.
   */
  resumed?(kind: "form" | "url", needKey: string): ResumedFor | undefined;
  /** A form answer was validated and its record completed: a multi-round-trip wire carries it into later rounds. */
  settled?(answer: CarriedAnswer): void;
  /** The router found no way to ask this client (no mode, no way round); see WireCapabilityMissingError. */
  unavailable?(ask: SuspendedAsk): void;
}
