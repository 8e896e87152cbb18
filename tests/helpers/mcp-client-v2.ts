// The official SDK v2 client (@modelcontextprotocol/client) over real Streamable HTTP, in one of
// its three negotiation modes: pinned to 2026-07-28 (modern only), automatic (server/discover, then
// initialize as a fallback) or legacy (initialize). Its elicitation handler is scripted; on the
// modern era the client fulfils `input_required` results through it and retries by itself.
import { Client, StreamableHTTPClientTransport, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/client";

export type V2Mode = "pin" | "auto" | "legacy";
export type V2Answer = (req: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

export interface V2TestClient {
  client: Client;
  received: Array<ElicitRequest["params"] & Record<string, unknown>>;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; structured: Record<string, unknown>; isError: boolean }>;
  close(): Promise<void>;
}

export async function connectV2Client(
  resource: string,
  token: string,
  opts: { mode: V2Mode; name?: string; capabilities: Record<string, unknown>; answer?: V2Answer },
): Promise<V2TestClient> {
  const versionNegotiation = opts.mode === "pin" ? { mode: { pin: "2026-07-28" } } : { mode: opts.mode };
  const client = new Client(
    { name: opts.name ?? "v2-test-client", version: "2.4.0" },
    { capabilities: opts.capabilities, versionNegotiation },
  );
  const received: V2TestClient["received"] = [];
  if (opts.capabilities.elicitation !== undefined) {
    client.setRequestHandler("elicitation/create", async (req) => {
      received.push(req.params as V2TestClient["received"][number]);
      if (!opts.answer) throw new Error("this test client answers no elicitation");
      return opts.answer(req.params);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(resource), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    client,
    received,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args }, { timeout: 30_000 });
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
