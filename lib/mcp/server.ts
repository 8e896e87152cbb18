// One McpServer per MCP session. Every tool receives the verified principal (subject and tenant
// from the bearer token), never a client-supplied identity, and every workflow's questions go
// through the elicitation engine via the 2025-11-25 wire adapter.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { declaredElicitation, declaredModes } from "@/lib/elicitation/capabilities";
import { SERVER_VERSION } from "@/lib/policy/flows";
import type { PolicySource } from "@/lib/policy/policy-source";
import { resolveFlow, type FlowContext } from "@/lib/policy/resolve-flow";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { DESCRIBE_CAPABILITIES_TOOL, describeCapabilities } from "@/lib/workflows/describe-capabilities";
import { argumentsSchema, NO_ARGUMENTS } from "@/lib/workflows/arguments";
import { servedWorkflows } from "@/lib/workflows/registry";
import type { WorkflowDefinition } from "@/lib/workflows/types";
import { attachGateway } from "@/lib/gateway/legacy-hook";
import { runWorkflow } from "./run-workflow";
import { wire20251125 } from "./wire-2025-11-25";

export const SERVER_INFO = { name: "elicitation-gateway", version: SERVER_VERSION };

export interface SessionContext {
  principal: McpPrincipal;
  db: Db;
  policy: PolicySource;
  sessionId: () => string | undefined;
  /** The protocol version negotiated at initialize. */
  protocolVersion: () => string;
  /** Aborts when the client goes away from this call (its stream closed) or from the session. */
  clientGone?: (requestId: string | number) => AbortSignal;
}

// One converted input schema per workflow for the life of the process, not one per session.
// Closed (lib/workflows/arguments.ts): an undeclared argument is refused before the tool runs.
const NO_ARGUMENTS_SCHEMA = z.fromJSONSchema(NO_ARGUMENTS as never) as z.ZodType<Record<string, unknown>>;
const inputSchemas = new Map<string, z.ZodType<Record<string, unknown>>>();
function inputSchemaFor(wf: WorkflowDefinition): z.ZodType<Record<string, unknown>> {
  let schema = inputSchemas.get(wf.name);
  if (!schema) inputSchemas.set(wf.name, (schema = z.fromJSONSchema(argumentsSchema(wf) as never) as z.ZodType<Record<string, unknown>>));
  return schema;
}

export function buildMcpServer(ctx: SessionContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  // Read once per session, not per call: it may read a development secret from disk. The grant
  // providers' issuers come from the registry per flow (lib/policy/resolve-flow.ts).
  const issuer = oidcConfig().issuer;
  const workflows = servedWorkflows();
  // Flows are selected by the verified client id only (never by clientInfo): lib/policy/resolve-flow.ts.
  const flowContext: FlowContext = { db: ctx.db, policy: ctx.policy, clientId: ctx.principal.clientId, issuer };
  const facts = () => {
    const caps = server.server.getClientCapabilities() as Record<string, unknown> | undefined;
    const client = server.server.getClientVersion();
    return { caps, client, modes: declaredModes(caps), declared: declaredElicitation(caps) };
  };

  server.registerTool(
    DESCRIBE_CAPABILITIES_TOOL.name,
    {
      title: DESCRIBE_CAPABILITIES_TOOL.title,
      description: DESCRIBE_CAPABILITIES_TOOL.description,
      inputSchema: NO_ARGUMENTS_SCHEMA,
      annotations: DESCRIBE_CAPABILITIES_TOOL.annotations,
    },
    async () => {
      const { caps, client, modes } = facts();
      const report = await describeCapabilities(ctx.policy, {
        subject: ctx.principal.subject,
        tenantId: ctx.principal.tenant,
        sessionId: ctx.sessionId() ?? null,
        client: client ? { name: client.name, version: client.version } : null,
        protocolVersion: ctx.protocolVersion(),
        declared: caps?.elicitation,
        modes,
        workflows,
        flowFor: (wf) => resolveFlow(flowContext, wf),
      });
      return { content: [{ type: "text", text: JSON.stringify(report, null, 2) }], structuredContent: report };
    },
  );

  for (const wf of workflows) {
    // The form fields, all optional, as listed input (the same JSON Schema the modern era lists).
    server.registerTool(
      wf.name,
      { title: wf.title, description: wf.description, inputSchema: inputSchemaFor(wf), annotations: wf.annotations },
      async (args, extra) => {
        const { client, modes, declared } = facts();
        const caller = {
          principal: ctx.principal,
          db: ctx.db,
          policy: ctx.policy,
          sessionId: ctx.sessionId() ?? null,
          client,
          protocolVersion: ctx.protocolVersion(),
          modes,
          declared,
          issuer,
        };
        const wire = wire20251125(server, {
          requestId: extra.requestId,
          signal: extra.signal,
          protocolVersion: caller.protocolVersion,
          clientGone: ctx.clientGone?.(extra.requestId),
        });
        return runWorkflow(wf, caller, { id: String(extra.requestId), wire, args: args ?? {} });
      },
    );
  }
  // Gateway mode: the tools of the upstreams this tenant may use, forwarded and governed (lib/gateway/).
  attachGateway(server, {
    db: ctx.db,
    policy: ctx.policy,
    principal: ctx.principal,
    sessionId: ctx.sessionId,
    protocolVersion: ctx.protocolVersion,
    client: () => facts().client,
    modes: () => facts().modes,
    declared: () => facts().declared,
    wireFor: (requestId, signal) =>
      wire20251125(server, { requestId, signal, protocolVersion: ctx.protocolVersion(), clientGone: ctx.clientGone?.(requestId) }),
    flowFor: (workflow) => resolveFlow(flowContext, { name: workflow, needs: [] }),
  });
  return server;
}
