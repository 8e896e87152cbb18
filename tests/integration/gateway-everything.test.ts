// Gateway mode against a real third-party upstream: @modelcontextprotocol/server-everything over
// Streamable HTTP, registered for tenant acme only. A client of acme sees its tools namespaced
// beside our workflows (descriptions, schemas, annotations kept) and its form and URL elicitations
// pass through the engine; a client of another tenant neither sees nor calls them. No answer
// value lands in the store.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayApp } from "../helpers/gateway-app";
import { connectClient } from "../helpers/mcp-client";
import { startEverything } from "../helpers/upstream-servers";

process.env.FLOW_NEW_STAGE = "canary:100";
process.env.ELICITATION_COOLDOWN_SECONDS = "0";

const gw = useGatewayApp({ subjectPrefix: "user-gw" });

beforeAll(async () => {
  const everything = await gw.serve(startEverything());
  await gw.register({
    id: "everything",
    displayName: "Everything",
    url: everything.url,
    tenants: ["acme"],
    exposedTools: ["*"],
    urlOrigins: ["https://example.com"],
  });
}, 60_000);

const user = (tenant: string) => gw.person({ tenant });
const recordsOf = gw.recordsOf;

describe("server-everything behind the gateway", () => {
  it("lists its tools namespaced for acme, with the upstream's schemas and annotations, and none for another tenant", async () => {
    const a = await user("acme");
    const c = await connectClient(gw.resource, a.token, { capabilities: { elicitation: { form: {}, url: {} } } });
    const listed = (await c.client.listTools()).tools;
    const names = listed.map((x) => x.name);
    expect(names).toContain("generate_report");
    expect(names).toContain("everything__trigger-elicitation-request");
    expect(names).toContain("everything__echo");
    const echo = listed.find((x) => x.name === "everything__echo")!;
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    const url = listed.find((x) => x.name === "everything__trigger-url-elicitation")!;
    expect(url.annotations).toMatchObject({ openWorldHint: true });
    expect(await c.call("everything__echo", { message: "hello" })).toMatchObject({
      text: expect.stringContaining("hello"),
      isError: false,
    });
    await c.close();

    const m = await user("globex");
    const g = await connectClient(gw.resource, m.token, { capabilities: { elicitation: { form: {} } } });
    const theirs = (await g.client.listTools()).tools.map((x) => x.name);
    expect(theirs.some((x) => x.startsWith("everything__"))).toBe(false);
    await expect(g.call("everything__echo", { message: "x" })).rejects.toThrow(/not found/);
    await g.close();
  }, 60_000);

  it("its form elicitation goes through the engine: the record names the upstream, no value is stored", async () => {
    const a = await user("acme");
    const canary = `canary-${Date.now()}-Zebulon`;
    const c = await connectClient(gw.resource, a.token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: { name: canary } }),
    });
    const r = await c.call("everything__trigger-elicitation-request");
    const rows = await recordsOf(a.subject);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ upstreamId: "everything", toolName: "everything__trigger-elicitation-request", mode: "form" });
    // The upstream's own JSON-RPC id for its elicitation/create, kept so the two sides can be matched.
    expect(row.upstreamRequestId).toMatch(/^[\w.-]{1,64}$/);
    expect(row).toMatchObject({ routeDecision: "form", state: "completed" });
    // The capability the client declared at initialize, on the gateway's record too (the gates replay it).
    expect(row.declaredElicitation).toEqual({ form: {} });
    expect(c.received).toHaveLength(1);
    // The answer was re-validated and forwarded: the upstream echoes it back in its result.
    expect(r.text).toContain(canary);
    const dump = await gw.db.execute(
      sql`select (select coalesce(json_agg(r)::text, '') from elicitation_records r) || (select coalesce(json_agg(e)::text, '') from elicitation_events e) || (select coalesce(json_agg(a)::text, '') from audit_log a) as all`,
    );
    expect(JSON.stringify(dump)).not.toContain(canary);
    await c.close();
  }, 60_000);

  it("its URL elicitation: allowed origin reaches a URL-capable client under our record id; the upstream's own id never does", async () => {
    const a = await user("acme");
    const c = await connectClient(gw.resource, a.token, {
      capabilities: { elicitation: { form: {}, url: {} } },
      answer: () => ({ action: "accept" }),
    });
    const r = await c.call("everything__trigger-url-elicitation", {
      url: "https://example.com/connect",
      elicitationId: "upstream-chosen-id",
    });
    expect(r.isError).toBe(false);
    expect(c.received).toHaveLength(1);
    const rows = await recordsOf(a.subject);
    expect(rows).toHaveLength(1);
    expect(c.received[0]).toMatchObject({ mode: "url", url: "https://example.com/connect", elicitationId: rows[0]!.id });
    expect(rows[0]).toMatchObject({
      mode: "url",
      routeDecision: "url",
      targetOrigin: "https://example.com",
      upstreamId: "everything",
      state: "completed",
    });
    await c.close();
  }, 60_000);

  it("a URL outside the upstream's allowlist is blocked and never shown", async () => {
    const a = await user("acme");
    const c = await connectClient(gw.resource, a.token, {
      capabilities: { elicitation: { form: {}, url: {} } },
      answer: () => ({ action: "accept" }),
    });
    const r = await c.call("everything__trigger-url-elicitation", { url: "https://evil.example.net/connect" });
    expect(c.received).toHaveLength(0);
    expect(r.text).toContain("not on upstream everything's allowlist");
    const rows = await recordsOf(a.subject);
    expect(rows[0]).toMatchObject({ routeDecision: "blocked", state: "not_sent", targetOrigin: null });
    await c.close();
  }, 60_000);
});
