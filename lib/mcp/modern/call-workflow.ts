// One 2026-07-28 tools/call: check the retry's sealed state (if any), run the shared workflow
// invocation with the multi-round-trip wire, and turn a suspended ask into an `input_required`
// result whose requestState is sealed to this caller, tool, arguments, record and need.
import { eq } from "drizzle-orm";
import { inputRequired, type CallToolResult, type InputRequiredResult, type InputRequest } from "@modelcontextprotocol/server";
import type { CallToolResult as V1CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { elicitationRecords } from "@/db/schema";
import { engineConfig } from "@/lib/elicitation/config";
import { WireCapabilityMissingError, WireSuspendedError, type SuspendedAsk } from "@/lib/elicitation/wire";
import type { WorkflowDefinition } from "@/lib/workflows/types";
import { textResult } from "@/lib/workflows/types";
import { argumentsHash, sealRequestState } from "../request-state";
import { failedResult, runWorkflow, type CallerFacts } from "../run-workflow";
import { wire20260728 } from "../wire-2026-07-28";
import { checkResume, type ResumeRefusal } from "./resume-check";

export interface ModernCall {
  requestId: string;
  /** Validated as a JSON object by the SDK against the tool's listed input schema. */
  args: Record<string, unknown>;
  /** The raw requestState the client echoed, if any: attacker-controlled until checked. */
  requestState: string | undefined;
  inputResponses: Record<string, unknown> | undefined;
}

const REFUSAL_TEXT: Record<ResumeRefusal, string> = {
  malformed: "is not one this server issued",
  altered: "was altered",
  expired: "has expired (the time to answer ran out)",
  other_user: "belongs to another user",
  other_tenant: "belongs to another tenant",
  other_tool: "was issued for another tool",
  other_arguments: "was issued for other arguments",
  replayed: "was already used, or its request has ended",
  no_answer: "came back without a valid answer to its input request",
};

export async function callModernWorkflow(wf: WorkflowDefinition, caller: CallerFacts, key: Buffer, call: ModernCall): Promise<CallToolResult | InputRequiredResult> {
  try {
    return await callOnce(wf, caller, key, call);
  } catch (err) {
    // The state check and the suspension touch the store too: the same plain "Not done".
    return asV2(failedResult(wf.name, err));
  }
}

async function callOnce(wf: WorkflowDefinition, caller: CallerFacts, key: Buffer, call: ModernCall): Promise<CallToolResult | InputRequiredResult> {
  const argsHash = argumentsHash(call.args);
  let resume;
  if (call.requestState !== undefined) {
    const checked = await checkResume(caller.db, key, { principal: caller.principal, tool: wf.name, argsHash, state: call.requestState, inputResponses: call.inputResponses });
    if (!checked.ok) {
      const text = `Refused: the requestState ${REFUSAL_TEXT[checked.reason]}. Nothing was done; call ${wf.name} again without it to start over.`;
      return asV2(textResult(text, { outcome: "state_refused", reason: checked.reason }, true));
    }
    resume = checked.resume;
  }
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
    const [record] = await caller.db.select({ expiresAt: elicitationRecords.expiresAt }).from(elicitationRecords).where(eq(elicitationRecords.id, ask.recordId)).limit(1);
    expiresAt = record?.expiresAt?.getTime() ?? Date.now();
  }
  const request = inputRequest(ask);
  const requestState = sealRequestState(key, { subject: caller.principal.subject, tenant: caller.principal.tenant, tool, argsHash, recordId: ask.recordId, needKey: ask.needKey, kind: ask.kind, expiresAt });
  return inputRequired({ inputRequests: { [ask.needKey]: request }, requestState });
}

/** The workflows build results with the 1.x types; the wire shape is the same in both eras. */
function asV2(result: V1CallToolResult): CallToolResult {
  return result as unknown as CallToolResult;
}
