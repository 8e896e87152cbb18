// One McpServer per MCP session. Every tool receives the verified principal (subject and tenant
// from the bearer token), never a client-supplied identity, and every workflow's questions go
// through the elicitation engine via the 2025-11-25 wire adapter.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";
import { declaredModes } from "@/lib/elicitation/capabilities";
import { engineConfig } from "@/lib/elicitation/config";
import { askForm, type AskContext } from "@/lib/elicitation/engine";
import { ensureGrant } from "@/lib/connect/grant";
import { SERVER_VERSION } from "@/lib/policy/flows";
import type { PolicySource } from "@/lib/policy/policy-source";
import { resolveFlow, type FlowContext } from "@/lib/policy/resolve-flow";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { downstreamUrls } from "@/lib/auth/dev-idp/downstream";
import { describeCapabilities } from "@/lib/workflows/describe-capabilities";
import { WORKFLOWS } from "@/lib/workflows/registry";
import type { WorkflowRuntime } from "@/lib/workflows/types";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import { logger } from "@/lib/log/logger";
import { textResult } from "@/lib/workflows/types";
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

export function buildMcpServer(ctx: SessionContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  // Read once per session, not per call: both read development secrets from disk.
  const issuer = oidcConfig().issuer;
  const downstreamIssuer = downstreamUrls().issuer;
  // Flows are selected by the verified client id only (never by clientInfo): lib/policy/resolve-flow.ts.
  const flowContext: FlowContext = { db: ctx.db, policy: ctx.policy, clientId: ctx.principal.clientId, issuer, downstreamIssuer };
  const facts = () => {
    const caps = server.server.getClientCapabilities() as Record<string, unknown> | undefined;
    const client = server.server.getClientVersion();
    return { caps, client, modes: declaredModes(caps) };
  };

  server.registerTool(
    "describe_capabilities",
    {
      title: "Describe capabilities",
      description: "Asks nothing. Reports who this session belongs to, which elicitation modes the client declared, and how each workflow's needs would be routed for it now.",
      inputSchema: {},
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
        workflows: WORKFLOWS,
        flowFor: (wf) => resolveFlow(flowContext, wf),
      });
      return { content: [{ type: "text", text: JSON.stringify(report, null, 2) }], structuredContent: report };
    },
  );

  for (const wf of WORKFLOWS) {
    const runWorkflow = async (extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
      const { client, modes } = facts();
      const clientName = client?.name ?? "unknown";
      const flow = await resolveFlow(flowContext, wf);
      const session = { id: ctx.sessionId() ?? null, clientName, clientVersion: client?.version ?? "unknown", protocolVersion: ctx.protocolVersion(), modes };
      const wire = wire20251125(server, { requestId: extra.requestId, signal: extra.signal, protocolVersion: session.protocolVersion, clientGone: ctx.clientGone?.(extra.requestId) });
      const config = engineConfig();
      const ask: AskContext = { db: ctx.db, subject: ctx.principal.subject, tenantId: ctx.principal.tenant, session, request: { method: "tools/call", id: String(extra.requestId), toolName: wf.name }, flow, policy: ctx.policy, wire, config };
      const runtime: WorkflowRuntime = {
        db: ctx.db,
        subject: ctx.principal.subject,
        tenantId: ctx.principal.tenant,
        session,
        flow,
        policy: ctx.policy,
        askForm: (need) => askForm(ask, need),
        ensureGrant: (need) => ensureGrant(ask, need),
      };
      return wf.run(runtime);
    };
    server.registerTool(wf.name, { title: wf.title, description: wf.description, inputSchema: {} }, async (_args, extra) => {
      try {
        return await runWorkflow(extra);
      } catch (err) {
        // A store outage is reported plainly, never as a driver message (which may quote SQL);
        // whatever was written before it stays consistent and is reconciled (reconcile.ts).
        const failure = storeFailureOf(err);
        logger.error({ event: "mcp.tool_failed", tool: wf.name, store: failure ?? null, error: err instanceof Error ? err.name : "error" }, "tool call failed");
        const text = failure ? `Not done: ${storeFailureText(failure)}. Nothing was done; retry in a moment.` : "Not done: an internal error occurred. Nothing was done.";
        return textResult(text, { outcome: failure ? "store_unavailable" : "internal_error" }, true);
      }
    });
  }
  return server;
}
