// One McpServer per MCP session. Tools are registered here; every tool receives the verified
// principal (subject and tenant from the bearer token), never a client-supplied identity.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Db } from "@/db/client";
import { declaredModes } from "@/lib/elicitation/capabilities";
import type { McpPrincipal } from "@/lib/auth/mcp-bearer";

export const SERVER_INFO = { name: "elicitation-gateway", version: "0.1.0" };

export interface SessionContext {
  principal: McpPrincipal;
  db: Db;
  sessionId: () => string | undefined;
}

export function buildMcpServer(ctx: SessionContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  server.registerTool(
    "describe_capabilities",
    {
      title: "Describe capabilities",
      description: "Reports who this session belongs to, which elicitation modes the client declared, and which workflows it can use. Asks nothing.",
      inputSchema: {},
    },
    async () => {
      const caps = server.server.getClientCapabilities() as Record<string, unknown> | undefined;
      const client = server.server.getClientVersion();
      const report = {
        subject: ctx.principal.subject,
        tenant: ctx.principal.tenant,
        session: ctx.sessionId() ?? null,
        client: client ? { name: client.name, version: client.version } : null,
        declaredElicitation: caps?.elicitation ?? null,
        modes: declaredModes(caps),
      };
      return { content: [{ type: "text", text: JSON.stringify(report, null, 2) }], structuredContent: report };
    },
  );
  return server;
}
