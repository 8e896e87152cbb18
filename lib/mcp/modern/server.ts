// One SDK v2 McpServer per 2026-07-28 request (the era is stateless: no initialize, no session).
// Everything a 2025-11-25 session learns once at initialize arrives here with every request, in
// the per-request `_meta` envelope: protocol version, client name and version, and the client's
// capabilities, which decide the elicitation modes exactly as at initialize. The same tools, the
// same annotations and the same shared workflow invocation as the 2025-11-25 server.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  fromJsonSchema,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { declaredElicitation, declaredModes } from "@/lib/elicitation/capabilities";
import { MODERN_PROTOCOL_VERSION, type ResumedAnswer } from "@/lib/elicitation/wire";
import type { PolicySource } from "@/lib/policy/policy-source";
import { DESCRIBE_CAPABILITIES_TOOL, describeCapabilities } from "@/lib/workflows/describe-capabilities";
import { argumentsSchema, NO_ARGUMENTS } from "@/lib/workflows/arguments";
import { servedWorkflows } from "@/lib/workflows/registry";
import type { WorkflowDefinition } from "@/lib/workflows/types";
import type { CallerFacts } from "../run-workflow";
import { SERVER_INFO } from "../server";
import { callModernWorkflow } from "./call-workflow";
import { resolveFlow } from "@/lib/policy/resolve-flow";

// Declared beside the engine's wire types (the reconciler reads it too); served from here.
export { MODERN_PROTOCOL_VERSION };

export interface ModernContext {
  principal: McpPrincipal;
  db: Db;
  policy: PolicySource;
  /** Seals requestState (lib/mcp/request-state-key.ts). */
  stateKey: Buffer;
  /** The answer this request carries, verified by the state gate before dispatch. */
  resume?: ResumedAnswer;
  /** Read once per endpoint, not per request: it may read a development secret from disk. */
  issuer: string;
}

// One compiled input schema per workflow for the life of the process: a server is built per
// request in this era, and compiling the schemas each time would dominate its cost.
const inputSchemas = new Map<string, ReturnType<typeof fromJsonSchema<Record<string, unknown>>>>();
function inputSchemaFor(wf: WorkflowDefinition) {
  let schema = inputSchemas.get(wf.name);
  if (!schema) inputSchemas.set(wf.name, (schema = fromJsonSchema<Record<string, unknown>>(argumentsSchema(wf))));
  return schema;
}

/** describe_capabilities takes no arguments: anything sent is refused, as in the 2025-11-25 era. */
const NO_ARGUMENTS_SCHEMA = fromJsonSchema<Record<string, unknown>>(NO_ARGUMENTS);

/** What the request's envelope says about the client (the SDK has already validated it). */
export function envelopeFacts(rctx: ServerContext) {
  const envelope = (rctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const info = envelope[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  const caps = envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined;
  const version = envelope[PROTOCOL_VERSION_META_KEY];
  return {
    caps,
    client:
      info && typeof info.name === "string"
        ? { name: info.name, version: typeof info.version === "string" ? info.version : "unknown" }
        : undefined,
    protocolVersion: typeof version === "string" ? version : MODERN_PROTOCOL_VERSION,
    modes: declaredModes(caps),
    declared: declaredElicitation(caps),
  };
}

export function buildModernServer(ctx: ModernContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const { issuer } = ctx;
  const workflows = servedWorkflows();

  server.registerTool(
    DESCRIBE_CAPABILITIES_TOOL.name,
    {
      title: DESCRIBE_CAPABILITIES_TOOL.title,
      description: DESCRIBE_CAPABILITIES_TOOL.description,
      inputSchema: NO_ARGUMENTS_SCHEMA,
      annotations: DESCRIBE_CAPABILITIES_TOOL.annotations,
    },
    async (_args, rctx) => {
      const { caps, client, protocolVersion, modes } = envelopeFacts(rctx);
      const report = await describeCapabilities(ctx.policy, {
        subject: ctx.principal.subject,
        tenantId: ctx.principal.tenant,
        sessionId: null,
        client: client ?? null,
        protocolVersion,
        declared: caps?.elicitation,
        modes,
        workflows,
        // The verified client id selects the flows, as for a call (never the envelope's clientInfo).
        flowFor: (wf) => resolveFlow({ db: ctx.db, policy: ctx.policy, clientId: ctx.principal.clientId, issuer }, wf),
      });
      return { content: [{ type: "text", text: JSON.stringify(report, null, 2) }], structuredContent: report };
    },
  );

  for (const wf of workflows) {
    // The form fields, all optional, as listed input; the engine checks them as it checks a form.
    server.registerTool(
      wf.name,
      { title: wf.title, description: wf.description, inputSchema: inputSchemaFor(wf), annotations: wf.annotations },
      async (args, rctx) => {
        const { client, protocolVersion, modes, declared } = envelopeFacts(rctx);
        const caller: CallerFacts = {
          principal: ctx.principal,
          db: ctx.db,
          policy: ctx.policy,
          sessionId: null,
          client,
          protocolVersion,
          modes,
          declared,
          issuer,
        };
        return callModernWorkflow(wf, caller, ctx.stateKey, {
          requestId: String(rctx.mcpReq.id),
          tool: wf.name,
          args: args ?? {},
          resume: ctx.resume,
        });
      },
    );
  }
  return server;
}
