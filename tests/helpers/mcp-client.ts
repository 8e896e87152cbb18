// A real SDK client over Streamable HTTP with a chosen capability manifest and a scripted
// elicitation handler; it records every elicitation/create it receives and the ids of its own
// tools/call requests, so tests can tie each elicitation to its originating call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type Answer = (req: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

export interface TestClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  received: Array<ElicitRequest["params"] & Record<string, unknown>>;
  toolCallIds: Array<string | number>;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; structured: Record<string, unknown>; isError: boolean }>;
  close(): Promise<void>;
}

export async function connectClient(
  resource: string,
  token: string,
  opts: { name?: string; version?: string; capabilities: Record<string, unknown>; answer?: Answer },
): Promise<TestClient> {
  const client = new Client({ name: opts.name ?? "test-client", version: opts.version ?? "1.0.0" }, { capabilities: opts.capabilities });
  const received: Array<ElicitRequest["params"] & Record<string, unknown>> = [];
  const toolCallIds: Array<string | number> = [];
  if (opts.capabilities.elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      received.push(req.params);
      if (!opts.answer) throw new Error("this test client answers no elicitation");
      return opts.answer(req.params);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(resource), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) toolCallIds.push(message.id);
    return send(message, options);
  };
  await client.connect(transport);
  return {
    client,
    transport,
    received,
    toolCallIds,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
      const content = r.content as Array<{ type: string; text?: string }>;
      return {
        text: content.map((c) => c.text ?? "").join(""),
        structured: (r.structuredContent ?? {}) as Record<string, unknown>,
        isError: r.isError === true,
      };
    },
    close: () => client.close(),
  };
}
