// The gateway's one hook into a 2025-11-25 session's McpServer (lib/mcp/server.ts): tools/list
// gains the tools of the upstreams the caller's tenant may use, namespaced, with their own
// descriptions, schemas and annotations; tools/call of such a name is forwarded (forward-call.ts).
// The SDK's McpServer converts every registered schema through zod, which would rewrite an
// upstream's JSON Schema, so the two handlers are wrapped instead: ours run first for the names
// they own and hand everything else to McpServer's own handlers unchanged.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { Flow, Upstream } from "@/db/schema";
import type { DeclaredElicitation, DeclaredModes } from "@/lib/elicitation/capabilities";
import { engineConfig } from "@/lib/elicitation/config";
import type { WireAdapter } from "@/lib/elicitation/wire";
import type { PolicySource } from "@/lib/policy/policy-source";
import { forwardToolCall } from "./forward-call";
import { upstreamsForTenant } from "./registry";
import { exposedToolName, isExposed, parseExposedName, TOOL_NAME_PATTERN } from "./tool-names";
import { toolsOfUpstream } from "./upstream-era";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

export interface LegacyGatewaySession {
  db: Db;
  policy: PolicySource;
  principal: { subject: string; tenant: string; clientId: string };
  sessionId: () => string | undefined;
  protocolVersion: () => string;
  client: () => { name: string; version: string } | undefined;
  modes: () => DeclaredModes;
  /** The elicitation capability as declared at initialize, bounded; null = none. */
  declared: () => DeclaredElicitation | null;
  wireFor(requestId: string | number, signal: AbortSignal): WireAdapter;
  flowFor(workflow: string): Promise<Flow>;
}

/** The namespaced tools of every upstream this tenant may use; an unreachable upstream lists nothing. */
export async function gatewayTools(db: Db, tenant: string): Promise<Array<{ row: Upstream; tool: Tool }>> {
  const rows = await upstreamsForTenant(db, tenant);
  const lists = await Promise.all(rows.map(async (row) => ({ row, tools: await toolsOfUpstream(row).catch(() => [] as Tool[]) })));
  // A name outside the specification's characters (a hostile upstream's) is never passed on.
  return lists.flatMap(({ row, tools }) =>
    tools.filter((t) => TOOL_NAME_PATTERN.test(t.name) && isExposed(row.exposedTools, t.name)).map((tool) => ({ row, tool })),
  );
}

export function asListed(row: Upstream, tool: Tool): Tool {
  return {
    ...tool,
    name: exposedToolName(row.id, tool.name),
    title: tool.title ?? tool.name,
    description: `[${row.displayName}] ${tool.description ?? ""}`.trim(),
  };
}

/** The upstream and tool a called name stands for, only if this tenant may use it and it is exposed. */
export async function resolveUpstreamTool(db: Db, tenant: string, name: string): Promise<{ row: Upstream; tool: string } | undefined> {
  const parsed = parseExposedName(name);
  if (!parsed) return undefined;
  const row = (await upstreamsForTenant(db, tenant)).find((r) => r.id === parsed.upstreamId);
  if (!row || !isExposed(row.exposedTools, parsed.tool)) return undefined;
  return { row, tool: parsed.tool };
}

export function attachGateway(server: McpServer, s: LegacyGatewaySession): void {
  // McpServer installs its handlers on the first registerTool; they are read back to delegate to.
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const ownList = handlers.get("tools/list");
  const ownCall = handlers.get("tools/call");
  if (!ownList || !ownCall) throw new Error("attachGateway needs the McpServer's tool handlers: register the workflows first");

  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const own = (await ownList(request, extra)) as { tools: Tool[] };
    const upstream = await gatewayTools(s.db, s.principal.tenant);
    return { ...own, tools: [...own.tools, ...upstream.map(({ row, tool }) => asListed(row, tool))] };
  });

  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!parseExposedName(name)) return (await ownCall(request, extra)) as never;
    const target = await resolveUpstreamTool(s.db, s.principal.tenant, name);
    // The same answer as for any unknown tool: another tenant's upstream is not even confirmed to exist.
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    const client = s.client();
    return forwardToolCall(
      {
        ask: {
          db: s.db,
          policy: s.policy,
          subject: s.principal.subject,
          tenantId: s.principal.tenant,
          session: {
            id: s.sessionId() ?? null,
            clientName: client?.name ?? "unknown",
            clientVersion: client?.version ?? "unknown",
            protocolVersion: s.protocolVersion(),
            modes: s.modes(),
            declared: s.declared(),
          },
          config: engineConfig(),
        },
        requestId: String(extra.requestId),
        signal: extra.signal,
        clientId: s.principal.clientId,
        wireFor: (signal) => s.wireFor(extra.requestId, signal),
        flowFor: s.flowFor,
        notifyComplete: (recordId) =>
          void server.server
            .createElicitationCompletionNotifier(recordId)()
            .catch(() => {}),
      },
      target.row,
      target.tool,
      (request.params.arguments ?? {}) as Record<string, unknown>,
    );
  });
}
