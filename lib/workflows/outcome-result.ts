// How an unanswered or refused need reads in a tool result: what happened, that nothing was done,
// and what the user can do next. Never a hidden default, never the answer's content.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AskOutcome } from "@/lib/elicitation/engine";
import { textResult } from "./types";

export interface UnansweredOptions {
  setupUrl?: string | null;
  cooldownMinutes: number;
  /** Plain words for giving the values as arguments instead (lib/workflows/arguments.ts), if the workflow takes them. */
  viaArguments?: string;
}

export function unansweredResult(outcome: Exclude<AskOutcome, { status: "answered" }>, opts: UnansweredOptions): CallToolResult {
  const base = { outcome: outcome.status, record: outcome.recordId };
  // The texts agree with the cool-down: after a decline or cancel the form is not offered again
  // within it, so no text invites an immediate retry that would then be refused.
  const sooner = opts.viaArguments ? ` To go ahead sooner, ${opts.viaArguments}.` : "";
  switch (outcome.status) {
    case "declined":
      return textResult("You declined. Nothing was done.", base);
    case "cancelled":
      return textResult(
        `The request was cancelled. Nothing was done. You will not be asked again for ${opts.cooldownMinutes} minutes.${sooner}`,
        base,
      );
    case "timed_out":
      return textResult("No answer arrived in time. Nothing was done; call the tool again to retry.", base, true);
    case "repeat_prevented":
      return textResult(
        `You ${outcome.previous} this less than ${opts.cooldownMinutes} minutes ago, so you are not asked again yet. Nothing was done.${sooner}`,
        { ...base, previous: outcome.previous },
      );
    case "invalid":
      return textResult(
        `The answer was not accepted (${outcome.errors.map((e) => `${e.field}: ${e.keyword}`).join("; ")}). Nothing was done; call the tool again to retry.`,
        { ...base, errors: outcome.errors },
        true,
      );
    case "revoked":
      return textResult(
        `Stopped: ${outcome.reason}. Your answer arrived after that and was not used. Nothing was done.`,
        { ...base, reason: outcome.reason },
        true,
      );
    case "failed":
      return textResult(`The client could not be asked (${outcome.reason}). Nothing was done.`, base, true);
    case "fallback":
    case "blocked": {
      if (outcome.status === "fallback" && opts.viaArguments && /no form mode/.test(outcome.reason)) {
        // The client cannot show forms: say what the person can do instead, in plain words.
        return textResult(
          `Not asked: your client cannot show forms (${outcome.reason}). Nothing was done. To go ahead, ${opts.viaArguments}.`,
          { ...base, reason: outcome.reason, viaArguments: true },
          true,
        );
      }
      const manual = opts.setupUrl ? ` You can do this outside the chat at ${opts.setupUrl}.` : "";
      return textResult(
        `Not asked: ${outcome.reason}. Nothing was done.${manual}`,
        { ...base, reason: outcome.reason, ...(opts.setupUrl ? { setupUrl: opts.setupUrl } : {}) },
        true,
      );
    }
  }
}
