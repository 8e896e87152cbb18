// Names an upstream tool gets at the gateway. Clients see `<upstreamId>__<tool>`: upstream ids are
// letters and digits only, so the first "__" always splits it back, and two upstreams' tools never
// collide with each other or with our workflows (whose names hold no "__"). Flows (and the kill
// switch's workflow: scope) need a stricter name ([a-z][a-z0-9_]{0,62}), so each upstream tool also
// gets a flow name: lower-cased, other characters folded to "_", and a short hash of the original
// whenever folding or shortening changed it, so two distinct tools never share a flow.
import { createHash } from "node:crypto";
import { UPSTREAM_ID_PATTERN } from "./upstream-input";

export const SEPARATOR = "__";

/** The characters the MCP specification allows in a tool name; anything else is never listed or called. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export function exposedToolName(upstreamId: string, tool: string): string {
  return `${upstreamId}${SEPARATOR}${tool}`;
}

/** The upstream and its tool a listed name stands for, or undefined for our own tools. */
export function parseExposedName(name: string): { upstreamId: string; tool: string } | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const upstreamId = name.slice(0, at);
  const tool = name.slice(at + SEPARATOR.length);
  if (!UPSTREAM_ID_PATTERN.test(upstreamId) || !TOOL_NAME_PATTERN.test(tool)) return undefined;
  return { upstreamId, tool };
}

export function flowWorkflowName(upstreamId: string, tool: string): string {
  const folded = tool.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const base = `${upstreamId}${SEPARATOR}${folded}`;
  if (folded === tool && base.length <= 63) return base;
  const hash = createHash("sha256").update(tool).digest("hex").slice(0, 8);
  return `${base.slice(0, 63 - 9)}_${hash}`;
}

/** Whether a registry row exposes an upstream tool ("*" exposes all of them). */
export function isExposed(exposedTools: readonly string[], tool: string): boolean {
  return exposedTools.includes("*") || exposedTools.includes(tool);
}
