// What one gate run knows: the flow, its workflow definition, the client variants to replay, the
// target and the tokens. Built once by run-gates.ts and handed to every gate.
import type { Flow } from "@/db/schema";
import type { FieldNeed, SecretNeed } from "@/lib/elicitation/needs";
import type { WorkflowDefinition } from "@/lib/workflows/types";
import type { GateApprover } from "./approver";
import type { ClientProfileUsed } from "./client-variants";
import type { GateTarget, TokenSource } from "./target";

export interface GateContext {
  flow: Flow;
  workflow: WorkflowDefinition;
  profile: ClientProfileUsed;
  target: GateTarget;
  tokens: TokenSource;
  /** A marker unique to this run: canaries start with it. */
  runId: string;
  /** The second operator who decides approval steps (proven by their own ctl login), if given. */
  approver?: GateApprover;
}

export const fieldNeeds = (wf: WorkflowDefinition): FieldNeed[] => wf.needs.filter((n): n is FieldNeed => n.kind === "field");
export const grantNeeds = (wf: WorkflowDefinition): SecretNeed[] =>
  wf.needs.filter((n): n is SecretNeed => n.kind === "grant" || n.kind === "credential" || n.kind === "payment");
export const approvalNeeds = (wf: WorkflowDefinition) => wf.needs.filter((n) => n.kind === "approval");
