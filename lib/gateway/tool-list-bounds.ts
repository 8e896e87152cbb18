// How much of an upstream's tool list the gateway takes (red team F4). An upstream decides what it
// lists, and every user of its tenants gets the list in their tools/list and their model's context:
// one page of 20,000 tools with long descriptions was 12 MB for everyone. So the list is bounded in
// total (across pages and within a page), each description is truncated, and a tool with an
// unusable name or an oversized schema is dropped; what was cut is said in one plain line in the
// upstream's health (the console), never silently.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { TOOL_NAME_PATTERN } from "./tool-names";

/** Tools taken from one upstream, over all its pages. */
export const MAX_UPSTREAM_TOOLS = 1000;
/** Characters of a tool's title or description passed on; longer ones are cut. */
export const MAX_TOOL_DESCRIPTION_CHARS = 2000;
/** Serialized size of a tool's input and output schema together; a larger tool is dropped. */
export const MAX_TOOL_SCHEMA_BYTES = 16 * 1024;

export interface ToolListBound {
  tools: Tool[];
  /** What was cut, in plain words, or undefined when the list was taken whole. */
  notice?: string;
}

const schemaBytes = (tool: Tool): number => {
  try {
    return Buffer.byteLength(JSON.stringify([tool.inputSchema, tool.outputSchema ?? null]));
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

const cut = (s: string | undefined): string | undefined =>
  typeof s === "string" && s.length > MAX_TOOL_DESCRIPTION_CHARS ? `${s.slice(0, MAX_TOOL_DESCRIPTION_CHARS)}…` : s;

/** Collects pages into a bounded list: call `add` per page while `full` is false, then `result`. */
export class ToolListCollector {
  private readonly tools: Tool[] = [];
  private badName = 0;
  private bigSchema = 0;
  private truncated = 0;
  private overCount = 0;

  get full(): boolean {
    return this.tools.length >= MAX_UPSTREAM_TOOLS;
  }

  add(page: readonly Tool[]): void {
    for (const tool of page) {
      if (this.full) {
        this.overCount++;
        continue;
      }
      if (typeof tool?.name !== "string" || !TOOL_NAME_PATTERN.test(tool.name)) {
        this.badName++;
        continue;
      }
      if (schemaBytes(tool) > MAX_TOOL_SCHEMA_BYTES) {
        this.bigSchema++;
        continue;
      }
      const description = cut(tool.description);
      const title = cut(tool.title);
      if (description !== tool.description || title !== tool.title) this.truncated++;
      this.tools.push({ ...tool, description, title } as Tool);
    }
  }

  /** `more`: the upstream had further pages the gateway did not fetch. */
  result(more: boolean): ToolListBound {
    const parts: string[] = [];
    if (this.overCount || more)
      parts.push(
        `only the first ${MAX_UPSTREAM_TOOLS} tools are listed${this.overCount ? ` (${this.overCount} more were dropped${more ? ", and further pages were not read" : ""})` : " (further pages were not read)"}`,
      );
    if (this.badName) parts.push(`${this.badName} tool(s) with a name outside the MCP tool-name rules were dropped`);
    if (this.bigSchema) parts.push(`${this.bigSchema} tool(s) with a schema over ${MAX_TOOL_SCHEMA_BYTES / 1024} KiB were dropped`);
    if (this.truncated) parts.push(`${this.truncated} description(s) over ${MAX_TOOL_DESCRIPTION_CHARS} characters were cut`);
    return { tools: this.tools, ...(parts.length ? { notice: `Tool list bounded: ${parts.join("; ")}.` } : {}) };
  }
}
