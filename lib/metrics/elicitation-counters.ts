// The engine's started/finished counts for this instance. Mode and state come from the schema's
// enums; anything else (a value that could only come from a bug) is counted as "other" so a label
// can never carry free text. Counted when the statement has run: a caller's transaction that rolls
// back afterwards leaves the count one high, which a rate on a dashboard absorbs.
import { elicitationMode, elicitationState } from "@/db/schema";
import { instanceMetrics } from "./instance-metrics";

const MODES: readonly string[] = elicitationMode.enumValues;
const STATES: readonly string[] = elicitationState.enumValues;

const modeLabel = (mode: string | null | undefined) => (mode && MODES.includes(mode) ? mode : "other");
const stateLabel = (state: string) => (STATES.includes(state) ? state : "other");

/** A record was written; `not_sent` (refused before reaching the client) also finishes it. */
export function countElicitationStarted(mode: string, state: "sent" | "not_sent"): void {
  const m = instanceMetrics();
  m.elicitationsStarted.inc({ mode: modeLabel(mode) });
  if (state === "not_sent") m.elicitationsFinished.inc({ mode: modeLabel(mode), outcome: "not_sent" });
}

export function countElicitationFinished(mode: string | null | undefined, outcome: string, n = 1): void {
  if (n > 0) instanceMetrics().elicitationsFinished.inc({ mode: modeLabel(mode), outcome: stateLabel(outcome) }, n);
}
