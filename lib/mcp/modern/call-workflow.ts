// One 2026-07-28 tools/call: run the shared workflow invocation with the multi-round-trip wire
// (resuming at the record a verified requestState names, if the retry carried one), and turn a
// suspended ask into an `input_required` result whose requestState is sealed to this caller,
// tool, arguments, record and need.
import { eq } from "drizzle-orm";
import { inputRequired, type CallToolResult, type InputRequiredResult, type InputRequest } from "@modelcontextprotocol/server";
import type { CallToolResult as V1CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { elicitationRecords } from "@/db/schema";
import { engineConfig } from "@/lib/elicitation/config";
import { WireCapabilityMissingError, WireSuspendedError, type ResumedAnswer, type SuspendedAsk } from "@/lib/elicitation/wire";
import type { WorkflowDefinition } from "@/lib/workflows/types";
import { argumentsHash, sealRequestState } from "../request-state";
import { failedResult, runWorkflow, type CallerFacts } from "../run-workflow";
import { wire20260728 } from "../wire-2026-07-28";

export interface ModernCall {
  requestId: string;
  tool: string;
  /** Validated as a JSON object by the SDK against the tool's listed input schema. */
  args: Record<string, unknown>;
  /** The answer this retry carries, from state the gate verified (lib/mcp/modern/state-gate.ts). */
  resume: ResumedAnswer | undefined;
}

export async function callModernWorkflow(
  wf: WorkflowDefinition,
  caller: CallerFacts,
  key: Buffer,
  call: ModernCall,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    return await callOnce(wf, caller, key, call);
  } catch (err) {
    // The suspension touches the store too: the same plain "Not done".
    return asV2(failedResult(wf.name, err));
  }
}

async function callOnce(
  wf: WorkflowDefinition,
  caller: CallerFacts,
  key: Buffer,
  call: ModernCall,
): Promise<CallToolResult | InputRequiredResult> {
  const argsHash = argumentsHash(call.args);
  // The gate verified this request's state before dispatch; a tool never reads the raw echo.
  const resume = call.tool === wf.name ? call.resume : undefined;
  try {
    return asV2(await runWorkflow(wf, caller, { id: call.requestId, wire: wire20260728(resume), args: call.args }));
  } catch (err) {
    if (err instanceof WireCapabilityMissingError) return missingCapability(err.ask);
    if (!(err instanceof WireSuspendedError)) throw err;
    return suspend(caller, key, wf.name, argsHash, err.ask);
  }
}

/**
 * The workflow cannot proceed without a mode the client did not declare. Returning the input
 * request anyway lets the SDK's own gate answer -32021 with exactly the capabilities the request
 * lacks (HTTP 400, the request id attached); no state is issued, so nothing can resume it.
 */
function missingCapability(ask: SuspendedAsk): InputRequiredResult {
  return inputRequired({ inputRequests: { [ask.needKey]: inputRequest(ask) } });
}

function inputRequest(ask: SuspendedAsk): InputRequest {
  return ask.kind === "form"
    ? inputRequired.elicit({ mode: "form", message: ask.params.message, requestedSchema: ask.params.requestedSchema as never })
    : inputRequired.elicitUrl({ message: ask.params.message, url: ask.params.url });
}

async function suspend(caller: CallerFacts, key: Buffer, tool: string, argsHash: string, ask: SuspendedAsk): Promise<InputRequiredResult> {
  let expiresAt: number;
  if (ask.kind === "form") {
    // This era's form timeout: an answer must come back before the sealed state expires.
    expiresAt = Date.now() + engineConfig().formTimeoutMs;
  } else {
    // A URL ask lives as long as its connect link.
    const [record] = await caller.db
      .select({ expiresAt: elicitationRecords.expiresAt })
      .from(elicitationRecords)
      .where(eq(elicitationRecords.id, ask.recordId))
      .limit(1);
    expiresAt = record?.expiresAt?.getTime() ?? Date.now();
  }
  const request = inputRequest(ask);
  const requestState = sealRequestState(key, {
    subject: caller.principal.subject,
    tenant: caller.principal.tenant,
    clientId: caller.principal.clientId,
    tool,
    argsHash,
    recordId: ask.recordId,
    needKey: ask.needKey,
    kind: ask.kind,
    expiresAt,
    ...(ask.carried?.length ? { carried: ask.carried } : {}),
  });
  return inputRequired({ inputRequests: { [ask.needKey]: request }, requestState });
}

/** The workflows build results with the 1.x types; the wire shape is the same in both eras. */
function asV2(result: V1CallToolResult): CallToolResult {
  return result as unknown as CallToolResult;
}
