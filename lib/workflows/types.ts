// The workflow API (README, "Writing a workflow"): a tool together with what it needs from the
// user. Workflows never talk to the client directly: they ask through the runtime, which routes
// every need through the engine, the approval gate or an authoritative read.
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { Flow } from "@/db/schema";
import type { AskOutcome } from "@/lib/elicitation/engine";
import type { ArgumentsOutcome } from "@/lib/elicitation/from-arguments";
import type { DeclaredModes } from "@/lib/elicitation/capabilities";
import type { FieldNeed, Need, SecretNeed } from "@/lib/elicitation/needs";
import type { GrantOutcome } from "@/lib/connect/grant";
import type { PolicySource } from "@/lib/policy/policy-source";

export interface WorkflowRuntime {
  db: Db;
  subject: string;
  tenantId: string;
  session: { id: string | null; clientName: string; clientVersion: string; protocolVersion: string; modes: DeclaredModes };
  flow: Flow;
  policy: PolicySource;
  /** The tool call's arguments (a workflow's form fields may be given here instead). */
  args: Record<string, unknown>;
  /** Check values given as arguments by the same linter, policy, schema and domain rules as a form. */
  answerFromArguments(need: FieldNeed, given: Record<string, unknown>): Promise<ArgumentsOutcome>;
  /** Ask for non-secret fields in a form (or get the router's refusal). */
  askForm(need: FieldNeed): Promise<AskOutcome>;
  /** Obtain (or reuse) a credential or grant through URL mode, never a form. */
  ensureGrant(need: SecretNeed): Promise<GrantOutcome>;
}

export interface WorkflowDefinition {
  name: string;
  title: string;
  description: string;
  /**
   * Tool annotations, the same in both protocol eras: whether the tool only reads, may destroy,
   * is safe to repeat, and reaches outside this server. Hints for clients, never a control.
   */
  annotations: ToolAnnotations;
  /** Declared up front: what the workflow may need, classified. Shown by describe_capabilities. */
  needs: Need[];
  /**
   * Arguments the tool takes besides its form fields (JSON Schema per name), listed and accepted but
   * never asked. Anything neither here nor a form field is refused (lib/workflows/arguments.ts).
   */
  extraArguments?: Record<string, Record<string, unknown>>;
  run(rt: WorkflowRuntime): Promise<CallToolResult>;
}

export function defineWorkflow(def: WorkflowDefinition): WorkflowDefinition {
  for (const need of def.needs) {
    if (need.kind === "field" && !need.schema.properties) throw new Error(`${def.name}: field need ${need.key} has no schema`);
  }
  return def;
}

export function textResult(text: string, structured?: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}
