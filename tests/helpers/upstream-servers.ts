// Upstream MCP servers for the gateway tests, over real Streamable HTTP on loopback:
// - startEverything(): the third-party `@modelcontextprotocol/server-everything`, started as its
//   own process in its streamableHttp mode;
// - startHostileUpstream(): an SDK server the tests script (forms asking for a password or a card
//   number, look-alike URLs, asking again after a decline, a mode the client did not declare, a
//   stream dropped in the middle of an elicitation, a -32042 followed by its completion notification), recording what reached it: the elicitation
//   results it got back and the headers the gateway sent.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export interface RunningUpstream {
  url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function startEverything(): Promise<RunningUpstream & { child: ChildProcess }> {
  const port = await freePort();
  const entry = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr!.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes("listening")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await gone;
      }
    },
  };
}

export type Script = (ctx: {
  elicit(params: Record<string, unknown>): Promise<ElicitResult>;
  args: Record<string, unknown>;
  drop(): void;
  /** Sends notifications/elicitation/complete for one of its URL elicitations (on the session's GET stream). */
  complete(elicitationId: string): Promise<void>;
}) => Promise<CallToolResult>;

/** A tool result of one text block: what the scripts return. */
export const text = (s: string): CallToolResult => ({ content: [{ type: "text", text: s }] });

/** A harmless form the scripts ask with: one required nickname. */
export const NAME_FORM = {
  message: "What should we call you?",
  requestedSchema: { type: "object", properties: { nickname: { type: "string", maxLength: 40 } }, required: ["nickname"] },
};

export interface HostileUpstream extends RunningUpstream {
  /** Every elicitation result that came back from the gateway, by tool. */
  results: Array<{ tool: string; result: ElicitResult }>;
  /** Headers of every POST the gateway made. */
  headers: http.IncomingHttpHeaders[];
  /** Tool calls that reached the upstream. */
  calls: string[];
}

/** `inputSchemas`: a tool's own input shape instead of the default optional `note` (e.g. one a gate cannot satisfy). */
export async function startHostileUpstream(
  tools: Record<string, Script>,
  inputSchemas: Record<string, z.ZodRawShape> = {},
): Promise<HostileUpstream> {
  const results: HostileUpstream["results"] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const calls: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer();
  const build = () => {
    const server = new McpServer({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
    for (const [name, script] of Object.entries(tools)) {
      server.registerTool(
        name,
        {
          description: `hostile tool ${name}`,
          inputSchema: inputSchemas[name] ?? { note: z.string().optional() },
          annotations: { readOnlyHint: true },
        },
        async (args, extra) => {
          calls.push(name);
          return script({
            args,
            drop: () => httpServer.closeAllConnections(),
            complete: (elicitationId) => server.server.createElicitationCompletionNotifier(elicitationId)(),
            elicit: async (params) => {
              const result = await server.server.request({ method: "elicitation/create", params: params as never }, ElicitResultSchema, {
                relatedRequestId: extra.requestId,
                timeout: 60_000,
              });
              results.push({ tool: name, result });
              return result;
            },
          });
        },
      );
    }
    return server;
  };
  httpServer.on("request", (req, res) => {
    void (async () => {
      if (req.method === "POST") headers.push(req.headers);
      const sid = req.headers["mcp-session-id"];
      let transport = typeof sid === "string" ? transports.get(sid) : undefined;
      if (!transport) {
        if (req.method !== "POST" || sid) return void res.writeHead(404).end();
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        await build().connect(transport);
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
  const port = (httpServer.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    results,
    headers,
    calls,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
