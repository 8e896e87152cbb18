// Whether a flow is an upstream tool's (gateway mode) and which one: its workflow name starts with
// a registered upstream's id and "__", and the gateway lists, to a test subject of the gate, an
// exposed tool of that upstream whose flow name (flowWorkflowName) is the flow's workflow. The
// listing goes through the target's own gateway with the flow's client, so the tenant rule, the
// exposed-tools rule and the tool's inputSchema are the ones the deployment applies, not a copy.
import type { DbOrTx } from "@/db/client";
import type { Flow, Upstream } from "@/db/schema";
import { listUpstreams } from "@/lib/gateway/registry";
import { exposedToolName, flowWorkflowName, parseExposedName, SEPARATOR } from "@/lib/gateway/tool-names";
import type { ClientVariant } from "./client-variants";
import { withSession } from "./mcp-session";
import type { GateTarget, TokenSource } from "./target";

export interface UpstreamTool {
  upstream: Upstream;
  /** The tool's name at the upstream, and as the gateway exposes it. */
  tool: string;
  exposedName: string;
  inputSchema: unknown;
}

/** The registered upstream a flow's workflow name points into, if any (no network). */
export async function upstreamOfFlow(db: DbOrTx, flow: Flow): Promise<Upstream | undefined> {
  const at = flow.workflow.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const id = flow.workflow.slice(0, at);
  return (await listUpstreams(db)).find((u) => u.id === id);
}

/**
 * The exposed tool behind the flow as the gateway lists it to a fresh test subject, or the reason
 * there is none (not exposed to that subject's tenant, not exposed at all, upstream unreachable).
 */
export async function findUpstreamTool(
  upstream: Upstream,
  flow: Flow,
  target: GateTarget,
  tokens: TokenSource,
  variant: ClientVariant,
): Promise<UpstreamTool | { reason: string }> {
  const { token } = await tokens.fresh("list");
  const listed = await withSession(
    target.mcpUrl,
    token,
    variant,
    () => ({ action: "cancel" }),
    (s) => s.listTools(),
  );
  for (const t of listed) {
    const parsed = parseExposedName(t.name);
    if (!parsed || parsed.upstreamId !== upstream.id) continue;
    if (flowWorkflowName(upstream.id, parsed.tool) !== flow.workflow) continue;
    return { upstream, tool: parsed.tool, exposedName: exposedToolName(upstream.id, parsed.tool), inputSchema: t.inputSchema };
  }
  const ofUpstream = listed.filter((t) => parseExposedName(t.name)?.upstreamId === upstream.id).length;
  return {
    reason: `the gateway lists no tool of upstream ${upstream.id} for flow workflow ${flow.workflow} to the gate's test subject (${ofUpstream} tool(s) of that upstream listed): not exposed, not allowed for the test subject's tenant, or the upstream is unreachable`,
  };
}
