// An upstream MCP server that speaks only 2026-07-28, built with the SDK v2 server over real
// Streamable HTTP on loopback (createMcpHandler with `legacy: 'reject'`: a 2025 `initialize` is
// refused). It asks for input the way that revision does: a tools/call answered with an
// `input_required` result (inputRequests plus an HMAC-sealed requestState it mints), and the
// answers taken from the retried call. A requestState that comes back altered by one byte is
// refused and counted, so a test can prove the gateway echoes it untouched. Tools are scripted
// per round; what reached the upstream (its answers, tool calls, request headers) is recorded.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import {
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  McpServer,
  type CallToolResult,
  type InputRequest,
  type InputRequiredResult,
} from "@modelcontextprotocol/server";

export type ModernStep = { ask: Record<string, InputRequest> } | { done: CallToolResult };
/** One tool: the answers of every earlier round (oldest first) decide the next step. */
export type ModernScript = (ctx: { args: Record<string, unknown>; rounds: Array<Record<string, unknown>> }) => ModernStep;

export interface ModernUpstream {
  url: string;
  /** Every set of inputResponses that reached the upstream, by tool. */
  answers: Array<{ tool: string; responses: Record<string, unknown> }>;
  /** Tool calls (first legs and retries) that reached the upstream. */
  calls: string[];
  headers: http.IncomingHttpHeaders[];
  /** Every requestState the upstream minted. */
  minted: string[];
  /** requestStates that came back not as the upstream minted them. */
  tampered: number;
  /** `initialize` requests refused (the gateway tried the 2025 revision). */
  legacyRefused: number;
  close(): Promise<void>;
}

export const form = (message: string, properties: Record<string, unknown>, required: string[] = []): InputRequest =>
  inputRequired.elicit({
    mode: "form",
    message,
    requestedSchema: { type: "object", properties, ...(required.length ? { required } : {}) } as never,
  });
export const link = (message: string, url: string): InputRequest => inputRequired.elicitUrl({ message, url });
export const text = (s: string): CallToolResult => ({ content: [{ type: "text", text: s }] });

export async function startModernUpstream(tools: Record<string, ModernScript>): Promise<ModernUpstream> {
  const up: ModernUpstream = {
    url: "",
    answers: [],
    calls: [],
    headers: [],
    minted: [],
    tampered: 0,
    legacyRefused: 0,
    close: async () => {},
  };
  const key = randomBytes(32);
  const mac = (body: string) => createHmac("sha256", key).update(body).digest("base64url");
  const seal = (rounds: unknown[]) => {
    const body = Buffer.from(JSON.stringify({ rounds, nonce: randomBytes(8).toString("hex") })).toString("base64url");
    const state = `${body}.${mac(body)}`;
    up.minted.push(state);
    return state;
  };
  const open = (state: string): Array<Record<string, unknown>> | undefined => {
    const [body, tag] = state.split(".");
    if (!body || !tag || tag.length !== mac(body).length || !timingSafeEqual(Buffer.from(tag), Buffer.from(mac(body)))) return undefined;
    return (JSON.parse(Buffer.from(body, "base64url").toString()) as { rounds: Array<Record<string, unknown>> }).rounds;
  };
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: "modern-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
      for (const [name, script] of Object.entries(tools)) {
        server.registerTool(
          name,
          {
            description: `2026-only tool ${name}`,
            inputSchema: fromJsonSchema<Record<string, unknown>>({ type: "object", properties: { note: { type: "string" } } } as never),
            annotations: { readOnlyHint: true },
          },
          async (args, ctx): Promise<CallToolResult | InputRequiredResult> => {
            up.calls.push(name);
            const echoed = ctx.mcpReq.requestState<string>();
            let rounds: Array<Record<string, unknown>> = [];
            if (typeof echoed === "string") {
              const opened = open(echoed);
              if (!opened) {
                up.tampered++;
                return { content: [{ type: "text", text: "request state rejected" }], isError: true };
              }
              const responses = (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
              up.answers.push({ tool: name, responses });
              rounds = [...opened, responses];
            }
            const step = script({ args: (args ?? {}) as Record<string, unknown>, rounds });
            if ("done" in step) return step.done;
            return inputRequired({ inputRequests: step.ask, requestState: seal(rounds) });
          },
        );
      }
      return server;
    },
    { legacy: "reject" },
  );
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      if (req.method === "POST") up.headers.push(req.headers);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks);
      if (raw.length && /"method"\s*:\s*"initialize"/.test(raw.toString())) up.legacyRefused++;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined && k !== "content-length" && k !== "transfer-encoding") headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const response = await handler.fetch(
        new Request(new URL(req.url ?? "/", up.url), { method: req.method, headers, body: raw.length ? raw : undefined }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
  up.url = `http://127.0.0.1:${(httpServer.address() as net.AddressInfo).port}/mcp`;
  up.close = async () => {
    httpServer.closeAllConnections();
    await new Promise<void>((r) => httpServer.close(() => r()));
  };
  return up;
}
