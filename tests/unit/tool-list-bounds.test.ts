// Red team F4: what the gateway takes of an upstream's tool list. A flood within one page, across
// pages, oversized descriptions and schemas and unusable names are cut, and the note says so.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MAX_TOOL_DESCRIPTION_CHARS, MAX_TOOL_SCHEMA_BYTES, MAX_UPSTREAM_TOOLS, ToolListCollector } from "@/lib/gateway/tool-list-bounds";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: "object" }, ...extra }) as Tool;

describe("upstream tool lists are bounded", () => {
  it("takes an ordinary list whole, without a note", () => {
    const list = new ToolListCollector();
    list.add([tool("echo", { description: "Echoes" }), tool("add")]);
    expect(list.result(false)).toEqual({ tools: [tool("echo", { description: "Echoes" }), tool("add")] });
  });

  it("cuts one page of 20,000 tools to the bound and says so", () => {
    const list = new ToolListCollector();
    list.add(Array.from({ length: 20_000 }, (_, i) => tool(`t${i}`)));
    expect(list.full).toBe(true);
    const { tools, notice } = list.result(false);
    expect(tools).toHaveLength(MAX_UPSTREAM_TOOLS);
    expect(tools.at(-1)!.name).toBe(`t${MAX_UPSTREAM_TOOLS - 1}`);
    expect(notice).toContain(`only the first ${MAX_UPSTREAM_TOOLS} tools are listed (${20_000 - MAX_UPSTREAM_TOOLS} more were dropped)`);
  });

  it("bounds the total across pages, and notes unread pages", () => {
    const list = new ToolListCollector();
    for (let p = 0; !list.full; p++) list.add(Array.from({ length: 300 }, (_, i) => tool(`p${p}_${i}`)));
    const { tools, notice } = list.result(true);
    expect(tools).toHaveLength(MAX_UPSTREAM_TOOLS);
    expect(notice).toContain("further pages were not read");
  });

  it("truncates long descriptions and titles, drops oversized schemas and bad names", () => {
    const list = new ToolListCollector();
    const big = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, { type: "string", description: "x".repeat(20) }])),
    };
    list.add([
      tool("long", { description: "d".repeat(50_000), title: "t".repeat(5000) }),
      tool("schema", { inputSchema: big as Tool["inputSchema"] }),
      tool("bad name"),
      tool("x".repeat(129)),
      { inputSchema: { type: "object" } } as unknown as Tool,
      tool("ok"),
    ]);
    const { tools, notice } = list.result(false);
    expect(tools.map((x) => x.name)).toEqual(["long", "ok"]);
    expect(tools[0]!.description).toHaveLength(MAX_TOOL_DESCRIPTION_CHARS + 1);
    expect(tools[0]!.title).toHaveLength(MAX_TOOL_DESCRIPTION_CHARS + 1);
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_TOOL_SCHEMA_BYTES);
    expect(notice).toContain("3 tool(s) with a name outside the MCP tool-name rules were dropped");
    expect(notice).toContain("1 tool(s) with a schema over 16 KiB were dropped");
    expect(notice).toContain("1 description(s) over 2000 characters were cut");
  });
});
