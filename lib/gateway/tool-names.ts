// Names an upstream tool gets at the gateway. Clients see `<upstreamId>__<tool>`: upstream ids are
// letters and digits only, so the first "__" always splits it back, and two upstreams' tools never
// collide with each other or with our workflows (whose names hold no "__"). Flows (and the kill
// switch's workflow: scope) need a stricter name ([a-z][a-z0-9_]{0,62}), so each upstream tool also
// gets a flow name: lower-cased, other characters folded to "_", and a hash of the original
// whenever folding or shortening changed it, so two distinct tools never share a flow.
// The mapping is kept one-to-one by giving the two kinds of name disjoint shapes: a hashed name
// always ends in "_" plus HASH_HEX hex digits, and a name that already has that ending is hashed
// too, even if it is in the folded form (red team F7: a tool named like another tool's hashed flow
// name took over that flow). The hash is 64 bits so an upstream cannot search for two names whose
// hashes agree (32 bits could be found in seconds).
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

const HASH_HEX = 16;
const MAX_FLOW_NAME = 63;
const HASHED_SHAPE = new RegExp(`_[0-9a-f]{${HASH_HEX}}$`);

export function flowWorkflowName(upstreamId: string, tool: string): string {
  const folded = tool.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const base = `${upstreamId}${SEPARATOR}${folded}`;
  if (folded === tool && base.length <= MAX_FLOW_NAME && !HASHED_SHAPE.test(base)) return base;
  const hash = createHash("sha256").update(tool).digest("hex").slice(0, HASH_HEX);
  return `${base.slice(0, MAX_FLOW_NAME - HASH_HEX - 1)}_${hash}`;
}

/** Whether a registry row exposes an upstream tool ("*" exposes all of them). */
export function isExposed(exposedTools: readonly string[], tool: string): boolean {
  return exposedTools.includes("*") || exposedTools.includes(tool);
}
