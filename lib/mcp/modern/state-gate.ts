// The requestState gate of the 2026-07-28 leg: a retried tools/call carrying requestState is
// checked before the SDK dispatches it (lib/mcp/modern/resume-check.ts: sealed, bound, unexpired,
// its record still able to take the answer). A refusal is a JSON-RPC error with the request's id
// (-32602, as the revision asks of state that fails verification), audited, and nothing runs; an
// accepted state hands the verified answer to the tool through the per-request server factory.
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import type { ResumedAnswer } from "@/lib/elicitation/wire";
import { argumentsHash } from "../request-state";
import { checkResume, type ResumeRefusal } from "./resume-check";

/**
 * What the caller is told. Another user, another tenant and another OAuth client read the same
 * ("other_caller"), so a refusal cannot be used to learn whose state it was; the audit entry keeps
 * the precise reason (resume-check.ts).
 */
export type WireRefusal = Exclude<ResumeRefusal, "other_user" | "other_tenant" | "other_client"> | "other_caller";

export type GateResult =
  | { kind: "none" }
  | { kind: "resume"; resume: ResumedAnswer }
  | { kind: "refused"; id: string | number | null; reason: WireRefusal; message: string };

function wireReason(reason: ResumeRefusal): WireRefusal {
  return reason === "other_user" || reason === "other_tenant" || reason === "other_client" ? "other_caller" : reason;
}

const REFUSAL_TEXT: Record<WireRefusal, string> = {
  malformed: "is not one this server issued",
  altered: "was altered",
  expired: "has expired (the time to answer ran out)",
  other_caller: "was not issued to this caller",
  other_tool: "was issued for another tool",
  other_arguments: "was issued for other arguments",
  replayed: "was already used, or its request has ended",
  revoked: "belongs to a request that was stopped (a kill switch, a flow rollback or an operator revoked it) before the answer arrived",
  no_answer: "came back without a valid answer to its input request",
};

export async function requestStateGate(db: Db, key: Buffer, principal: McpPrincipal, body: unknown): Promise<GateResult> {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { kind: "none" };
  const { method, params, id } = body as { method?: unknown; params?: unknown; id?: unknown };
  if (method !== "tools/call" || !params || typeof params !== "object") return { kind: "none" };
  const p = params as { name?: unknown; arguments?: unknown; requestState?: unknown; inputResponses?: unknown };
  // Absent, or not a string (the SDK refuses that shape itself): nothing to verify here.
  if (typeof p.requestState !== "string" || typeof p.name !== "string") return { kind: "none" };
  const inputResponses =
    p.inputResponses && typeof p.inputResponses === "object" && !Array.isArray(p.inputResponses)
      ? (p.inputResponses as Record<string, unknown>)
      : undefined;
  const checked = await checkResume(db, key, {
    principal,
    tool: p.name,
    argsHash: argumentsHash(p.arguments),
    state: p.requestState,
    inputResponses,
  });
  if (checked.ok) return { kind: "resume", resume: checked.resume };
  const requestId = typeof id === "string" || typeof id === "number" ? id : null;
  const reason = wireReason(checked.reason);
  return {
    kind: "refused",
    id: requestId,
    reason,
    message: `Invalid requestState: it ${REFUSAL_TEXT[reason]}. Nothing was done; call ${p.name} again without it to start over.`,
  };
}
