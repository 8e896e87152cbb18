// The one workflow invocation both protocol eras share. Whatever carried the call (a 2025-11-25
// session or a stateless 2026-07-28 request), the same flow lookup (by the token's verified client
// id, lib/policy/resolve-flow.ts), version fingerprint, engine,
// store and policy serve it; only the wire adapter differs. The record's protocol_version says which
// revision carried it. A wire that ends the call itself (multi-round-trip: the answer arrives in a
// later request; or a capability the client lacks) throws, and that passes through to its era.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { ensureGrant } from "@/lib/connect/grant";
import type { DeclaredElicitation, DeclaredModes } from "@/lib/elicitation/capabilities";
import { engineConfig } from "@/lib/elicitation/config";
import { askForm, type AskContext } from "@/lib/elicitation/engine";
import { answerFromArguments } from "@/lib/elicitation/from-arguments";
import { endsCallOnWire, type WireAdapter } from "@/lib/elicitation/wire";
import { logger } from "@/lib/log/logger";
import type { PolicySource } from "@/lib/policy/policy-source";
import { resolveFlow } from "@/lib/policy/resolve-flow";
import type { WorkflowDefinition, WorkflowRuntime } from "@/lib/workflows/types";
import { textResult } from "@/lib/workflows/types";

export interface CallerFacts {
  principal: McpPrincipal;
  db: Db;
  policy: PolicySource;
  /** The MCP session (2025-11-25), or null: the 2026-07-28 era is stateless. */
  sessionId: string | null;
  client: { name: string; version: string } | undefined;
  protocolVersion: string;
  modes: DeclaredModes;
  /** The elicitation capability as declared (at initialize, or in this request), bounded; null = none. */
  declared: DeclaredElicitation | null;
  /** The MCP token issuer, part of the flow's version fingerprint (read once per session or request). */
  issuer: string;
}

/** Runs one workflow for one tools/call. Store failures become a plain "Not done" result. */
export async function runWorkflow(
  wf: WorkflowDefinition,
  caller: CallerFacts,
  request: { id: string; wire: WireAdapter; args: Record<string, unknown> },
): Promise<CallToolResult> {
  try {
    return await invoke(wf, caller, request);
  } catch (err) {
    if (endsCallOnWire(err)) throw err;
    return failedResult(wf.name, err);
  }
}

/**
 * A store outage is reported plainly, never as a driver message (which may quote SQL); whatever
 * was written before it stays consistent and is reconciled (reconcile.ts).
 */
export function failedResult(tool: string, err: unknown): CallToolResult {
  const failure = storeFailureOf(err);
  logger.error(
    { event: "mcp.tool_failed", tool, store: failure ?? null, error: err instanceof Error ? err.name : "error" },
    "tool call failed",
  );
  const text = failure
    ? `Not done: ${storeFailureText(failure)}. Nothing was done; retry in a moment.`
    : "Not done: an internal error occurred. Nothing was done.";
  return textResult(text, { outcome: failure ? "store_unavailable" : "internal_error" }, true);
}

async function invoke(
  wf: WorkflowDefinition,
  caller: CallerFacts,
  request: { id: string; wire: WireAdapter; args: Record<string, unknown> },
): Promise<CallToolResult> {
  const { db, policy, principal, client, modes, declared } = caller;
  const clientName = client?.name ?? "unknown";
  // The flow comes from the verified client id only; clientInfo is recorded, never consulted.
  const flow = await resolveFlow({ db, policy, clientId: principal.clientId, issuer: caller.issuer }, wf);
  const session = {
    id: caller.sessionId,
    clientName,
    clientVersion: client?.version ?? "unknown",
    protocolVersion: caller.protocolVersion,
    modes,
    declared,
  };
  const ask: AskContext = {
    db,
    subject: principal.subject,
    tenantId: principal.tenant,
    session,
    request: { method: "tools/call", id: request.id, toolName: wf.name },
    flow,
    policy,
    wire: request.wire,
    config: engineConfig(),
  };
  const runtime: WorkflowRuntime = {
    db,
    subject: principal.subject,
    tenantId: principal.tenant,
    session,
    flow,
    policy,
    args: request.args,
    answerFromArguments: (need, given) => answerFromArguments(ask, need, given),
    askForm: (need) => askForm(ask, need),
    ensureGrant: (need) => ensureGrant(ask, need),
  };
  return wf.run(runtime);
}
