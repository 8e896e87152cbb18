// The rest of the 2026-07-28 revision on /api/mcp, over real HTTP: server/discover, the envelope
// and header checks, removed methods, -32021 naming what a client lacks, error responses that carry
// the request id, tool annotations in both eras, the same bearer check and the same policy.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";
import { connectV2Client } from "../helpers/mcp-client-v2";
import { callTool, envelope, MODERN, modernPost } from "../helpers/mcp-modern-raw";

const mcp = useMcpApp({ records: 5, appUrl: "http://localhost" });
let n = 0;

async function user(tenant = "acme") {
  const subject = `user-proto-${++n}-${Date.now()}`;
  return { subject, token: await mcp.token({ subject, tenant }) };
}
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));

describe("lifecycle", () => {
  it("server/discover names the revision and the server, with no session", async () => {
    const u = await user();
    const r = await modernPost(mcp.resource, u.token, { id: "d-1", method: "server/discover", params: { _meta: envelope() } });
    expect(r.status).toBe(200);
    expect(r.id).toBe("d-1");
    expect(r.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "elicitation-gateway" } },
    });
  });

  it("a 2025-era request without a session is still told to initialize (the legacy path is unchanged)", async () => {
    const u = await user();
    const res = await fetch(mcp.resource, {
      method: "POST",
      headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "legacy-1", method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(400);
    // The error answers the request it refuses: its id, not null.
    expect(await res.json()).toMatchObject({ id: "legacy-1", error: { code: -32600, message: "no session: send initialize first" } });
  });

  it("an unknown (or someone else's) session is refused with the request's id", async () => {
    const u = await user();
    const res = await fetch(mcp.resource, {
      method: "POST",
      headers: {
        authorization: `Bearer ${u.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "no-such-session",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 42, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ id: 42, error: { code: -32001, message: "session not found" } });
  });

  it.each(["initialize", "ping", "elicitation/create", "notifications/elicitation/complete", "tasks/get", "no/such/method"])(
    "%s is not a method of this revision: -32601 with the request id",
    async (method) => {
      const u = await user();
      const r = await modernPost(mcp.resource, u.token, { id: 77, method, params: { _meta: envelope() } });
      expect(r.status).toBe(404);
      expect(r).toMatchObject({ id: 77, error: { code: -32601 } });
    },
  );
});

describe("envelope and header checks", () => {
  it("an unsupported protocol version is -32022, naming the supported one", async () => {
    const u = await user();
    const r = await modernPost(
      mcp.resource,
      u.token,
      { id: 5, method: "tools/list", params: { _meta: envelope(undefined, "2099-01-01") } },
      { "mcp-protocol-version": "2099-01-01" },
    );
    expect(r.status).toBe(400);
    expect(r).toMatchObject({ id: 5, error: { code: -32022, data: { supported: [MODERN], requested: "2099-01-01" } } });
  });

  it("a header that disagrees with the envelope is -32020", async () => {
    const u = await user();
    const r = await modernPost(
      mcp.resource,
      u.token,
      { id: 6, method: "tools/list", params: { _meta: envelope() } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(r.status).toBe(400);
    expect(r).toMatchObject({ id: 6, error: { code: -32020 } });
  });

  it("a method header that disagrees with the body is -32020, and nothing runs", async () => {
    const u = await user();
    const r = await modernPost(
      mcp.resource,
      u.token,
      { id: 7, method: "tools/call", params: { name: "generate_report", arguments: {}, _meta: envelope() } },
      { "mcp-method": "tools/list" },
    );
    expect(r).toMatchObject({ id: 7, error: { code: -32020 } });
    expect(await records(u.subject)).toHaveLength(0);
  });

  it("a malformed envelope is refused (-32602) and nothing runs", async () => {
    const u = await user();
    const r = await modernPost(mcp.resource, u.token, {
      id: 8,
      method: "tools/call",
      params: {
        name: "generate_report",
        arguments: {},
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": "nope" },
      },
    });
    expect(r.status).toBe(400);
    expect(r).toMatchObject({ id: 8, error: { code: -32602 } });
    expect(await records(u.subject)).toHaveLength(0);
  });

  it("a modern POST that is not application/json is refused (415) and nothing runs", async () => {
    const u = await user();
    const r = await modernPost(
      mcp.resource,
      u.token,
      { id: 9, method: "tools/call", params: { name: "generate_report", arguments: {}, _meta: envelope() } },
      { "content-type": "text/plain" },
    );
    expect(r.status).toBe(415);
    expect(await records(u.subject)).toHaveLength(0);
  });

  it("a modern request without a valid bearer token is refused like any other (401, challenge), nothing runs", async () => {
    const res = await fetch(mcp.resource, {
      method: "POST",
      headers: {
        authorization: "Bearer eyJhbGciOiJub25lIn0.e30.",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/list",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
  });
});

describe("-32021: a workflow that cannot proceed without a capability the client lacks", () => {
  it("generate_report from a client with no form mode: -32021 naming elicitation.form; the record says fallback, as in 2025-11-25", async () => {
    const u = await user();
    const r = await callTool(mcp.resource, u.token, "generate_report", { capabilities: { elicitation: { url: {} } } });
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect(r.id).toEqual(expect.any(Number));
    expect(await records(u.subject)).toMatchObject([
      { state: "not_sent", routeDecision: "fallback", routeReason: "client declared no form mode", protocolVersion: MODERN },
    ]);
  });

  it("list_repositories without URL mode has a way round (the setup link), so it is answered, not refused", async () => {
    const u = await user();
    const r = await callTool(mcp.resource, u.token, "list_repositories", { capabilities: { elicitation: { form: {} } } });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({ structuredContent: { outcome: "fallback", setupUrl: expect.stringContaining("/setup/demo-git") } });
  });
});

describe("tool annotations, the same in both eras", () => {
  const expected = {
    describe_capabilities: { readOnlyHint: true, destructiveHint: false },
    generate_report: { readOnlyHint: true, destructiveHint: false },
    purge_report_cache: { readOnlyHint: false, destructiveHint: true },
    list_repositories: { readOnlyHint: true, openWorldHint: true },
  };
  it("2026-07-28 (v2 client, pinned) and 2025-11-25 (v1 client) list every tool with the same annotations", async () => {
    const u = await user();
    const modern = await connectV2Client(mcp.resource, u.token, { mode: "pin", capabilities: {} });
    const legacy = await connectClient(mcp.resource, u.token, { capabilities: {} });
    const m = (await modern.client.listTools()).tools;
    const l = (await legacy.client.listTools()).tools;
    for (const tools of [m, l]) {
      expect(tools.map((x) => x.name).sort()).toEqual(Object.keys(expected).sort());
      for (const tool of tools) expect(tool.annotations).toMatchObject(expected[tool.name as keyof typeof expected]);
    }
    expect(Object.fromEntries(m.map((x) => [x.name, x.annotations]))).toEqual(Object.fromEntries(l.map((x) => [x.name, x.annotations])));
    await modern.close();
    await legacy.close();
  });
});

describe("one policy for both eras", () => {
  it("a kill switch blocks a pinned 2026-07-28 client exactly as a 2025-11-25 one; the records say which revision", async () => {
    const u = await user();
    const answer = () => ({ action: "accept" as const, content: { environment: "staging", format: "pdf" } });
    const modern = await connectV2Client(mcp.resource, u.token, { mode: "pin", capabilities: { elicitation: {} }, answer });
    const legacy = await connectClient(mcp.resource, u.token, { capabilities: { elicitation: {} }, answer });
    await engageKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: "incident 12" });
    try {
      const a = await modern.call("generate_report");
      const b = await legacy.call("generate_report");
      expect(a.text).toBe(b.text);
      expect(a.text).toMatch(/kill switch mode:form is engaged \(stopped by an operator\)/);
      expect(a.text).not.toContain("incident 12");
      expect(modern.received).toHaveLength(0);
      expect((await records(u.subject)).map((r) => [r.state, r.routeDecision, r.protocolVersion]).sort()).toEqual([
        ["not_sent", "blocked", "2025-11-25"],
        ["not_sent", "blocked", MODERN],
      ]);
    } finally {
      await releaseKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: "resolved" });
      await releaseKillSwitch(mcp.db, { type: "operator", id: "op-admin-0001" }, { scope: "mode:form", reason: "resolved" });
    }
    await modern.close();
    await legacy.close();
  });

  it("describe_capabilities in the modern era reads the modes from the request's envelope", async () => {
    const u = await user();
    const r = await callTool(mcp.resource, u.token, "describe_capabilities", { capabilities: { elicitation: { url: {} } } });
    expect(r.result).toMatchObject({
      structuredContent: {
        protocolVersion: MODERN,
        session: null,
        modes: { form: false, url: true },
        client: { name: "raw-modern-client" },
      },
    });
  });
});
