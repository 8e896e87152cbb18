// What an outside red team found in /api/mcp, each attacked again over real HTTP with real SDK
// clients (2025-11-25 v1, 2026-07-28 v2) or hand-built requests, in both revisions where both apply:
// F1 kill switches and flow stops reach form answers already in flight; F2 no JSON-RPC batches;
// F6 closed input schemas; I1 one encoding per requestState; I2 the session's protocol version;
// I4 one refusal for "not yours"; I5 requestState bound to the OAuth client.
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvals, auditLog, elicitationRecords, flows, killSwitches } from "@/db/schema";
import { getRecord, recordEvents } from "@/lib/elicitation/records";
import { revokeRecords } from "@/lib/elicitation/revoke";
import { engageKillSwitch } from "@/lib/policy/kill-switch";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";
import { connectV2Client } from "../helpers/mcp-client-v2";
import { callTool, envelope, type RawAnswer } from "../helpers/mcp-modern-raw";

const mcp = useMcpApp({ records: 0, appUrl: "server" });
let n = 0;

async function user(opts: { tenant?: string; subject?: string; clientId?: string } = {}) {
  const subject = opts.subject ?? `user-red-${++n}-${Date.now()}`;
  const tenant = opts.tenant ?? "acme";
  const token = await mcp.token({ subject, tenant, ...(opts.clientId ? { clientId: opts.clientId } : {}) });
  return { subject, tenant, token };
}

const CANARY_TITLE = "canary-red-team-5d1e";
const VALID = { environment: "production", format: "csv", title: CANARY_TITLE };
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));
const accept = (key: string, content: Record<string, unknown> = VALID) => ({ [key]: { action: "accept", content } });
const OPERATOR = { type: "operator" as const, id: "operator-red-team" };

async function firstRound(u: { subject: string; token: string }) {
  const r = await callTool(mcp.resource, u.token, "generate_report");
  expect(r.result).toMatchObject({ resultType: "input_required" });
  const [key] = Object.keys(r.result!.inputRequests!);
  const rows = await records(u.subject);
  expect(rows).toMatchObject([{ state: "sent" }]);
  return { state: r.result!.requestState!, key: key!, recordId: rows[0]!.id, flowId: rows[0]!.flowId! };
}

function expectStateRefused(r: RawAnswer, reason: string) {
  expect(r.status).toBe(200);
  expect(r.result).toBeUndefined();
  expect(r.error).toMatchObject({ code: -32602, data: { reason } });
}

/** Nothing generated, and the canary answer written nowhere. */
async function expectNothingDone(subject: string, recordId: string) {
  const row = await getRecord(mcp.db, recordId);
  expect(row).toMatchObject({ state: "revoked" });
  expect(JSON.stringify(row)).not.toContain(CANARY_TITLE);
  expect(JSON.stringify(await recordEvents(mcp.db, recordId))).not.toContain(CANARY_TITLE);
  expect((await records(subject)).filter((r) => r.state === "completed")).toHaveLength(0);
}

describe("F1: a kill switch or a stopped flow reaches form answers already in flight", () => {
  // Each test leaves no switch behind and the flows as the seed made them.
  let savedFlows: Array<typeof flows.$inferSelect> = [];
  beforeAll(async () => {
    savedFlows = await mcp.db.select().from(flows);
  });
  afterEach(async () => {
    await mcp.db.delete(killSwitches);
    for (const f of savedFlows)
      await mcp.db.update(flows).set({ stage: f.stage, canaryPercent: f.canaryPercent }).where(eq(flows.id, f.id));
  });

  const scopes = (flowId: string) => ["global", "mode:form", "workflow:generate_report", `flow:${flowId}`];

  it.each([0, 1, 2, 3])(
    "2026-07-28: a switch (scope #%i) engaged between the rounds refuses the retry; the record is revoked and no report is generated",
    async (i) => {
      const u = await user();
      const { state, key, recordId, flowId } = await firstRound(u);
      const scope = scopes(flowId)[i]!;
      await engageKillSwitch(mcp.db, OPERATOR, { scope, reason: "red team drill" });
      // A new call is refused as before.
      const fresh = await callTool(mcp.resource, u.token, "generate_report");
      expect(fresh.result).toMatchObject({ isError: true, structuredContent: { outcome: "blocked" } });
      // The retry of the first call with an accepted answer is refused, and says why.
      const retry = await callTool(mcp.resource, u.token, "generate_report", {
        retry: { requestState: state, inputResponses: accept(key) },
      });
      expectStateRefused(retry, "revoked");
      expect(retry.error!.message).toContain("was stopped");
      expect((await recordEvents(mcp.db, recordId)).at(-1)).toMatchObject({
        toState: "revoked",
        actorId: OPERATOR.id,
        reason: `kill switch ${scope}: red team drill`,
      });
      await expectNothingDone(u.subject, recordId);
    },
  );

  it.each([0, 1, 2, 3])(
    "2025-11-25: a switch (scope #%i) engaged while the person answers refuses the answer; the record is revoked and no report is generated",
    async (i) => {
      const u = await user();
      let scope = "";
      const c = await connectClient(mcp.resource, u.token, {
        capabilities: { elicitation: { form: {} } },
        answer: async () => {
          // The record exists (sent) while the client holds the question: engage now, answer after.
          const [row] = await records(u.subject);
          scope = scopes(row!.flowId!)[i]!;
          await engageKillSwitch(mcp.db, OPERATOR, { scope, reason: "red team drill" });
          return { action: "accept", content: VALID };
        },
      });
      const r = await c.call("generate_report");
      expect(r.isError).toBe(true);
      expect(r.structured).toMatchObject({ outcome: "revoked" });
      expect(r.structured.report).toBeUndefined();
      expect(r.text).toMatch(/^Stopped: .*Your answer arrived after that and was not used\. Nothing was done\.$/);
      const [row] = await records(u.subject);
      expect((await recordEvents(mcp.db, row!.id)).at(-1)).toMatchObject({
        toState: "revoked",
        reason: `kill switch ${scope}: red team drill`,
      });
      await expectNothingDone(u.subject, row!.id);
      await c.close();
    },
  );

  /** A switch in force whose revocation never reached this record (written straight to the table). */
  const switchWithoutRevocation = () =>
    mcp.db
      .insert(killSwitches)
      .values({ scope: "workflow:generate_report", active: true, reason: "propagation window", changedBy: OPERATOR.id });
  /** A flow turned off without its pending records being revoked. */
  const flowStoppedWithoutRevocation = (flowId: string) => mcp.db.update(flows).set({ stage: "rolled_back" }).where(eq(flows.id, flowId));

  it.each([
    ["a kill switch", () => switchWithoutRevocation(), /kill switch workflow:generate_report is engaged \(stopped by an operator\)/],
    ["a rolled-back flow", (flowId: string) => flowStoppedWithoutRevocation(flowId), /flow .* is rolled back/],
  ] as const)(
    "the policy is read again when the answer arrives (%s), in both revisions, even if the record was never revoked",
    async (_name, stop, reason) => {
      // 2026-07-28: the state is valid and its record still `sent`; the engine's re-check refuses.
      const u = await user();
      const { state, key, recordId, flowId } = await firstRound(u);
      await stop(flowId);
      expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent" });
      const retry = await callTool(mcp.resource, u.token, "generate_report", {
        retry: { requestState: state, inputResponses: accept(key) },
      });
      expect(retry.result).toMatchObject({ isError: true, structuredContent: { outcome: "revoked", record: recordId } });
      expect(String(retry.result!.structuredContent!.reason)).toMatch(reason);
      expect((await recordEvents(mcp.db, recordId)).at(-1)).toMatchObject({ toState: "revoked", actorType: "system", actorId: "policy" });
      expect(
        await mcp.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "record.revoked"), eq(auditLog.targetId, recordId))),
      ).toHaveLength(1);
      await expectNothingDone(u.subject, recordId);
      await mcp.db.delete(killSwitches);
      for (const f of savedFlows) await mcp.db.update(flows).set({ stage: f.stage }).where(eq(flows.id, f.id));

      // 2025-11-25: the same stop, made while the person answers.
      const v = await user();
      const c = await connectClient(mcp.resource, v.token, {
        capabilities: { elicitation: { form: {} } },
        answer: async () => {
          const [row] = await records(v.subject);
          await stop(row!.flowId!);
          return { action: "accept", content: VALID };
        },
      });
      const r = await c.call("generate_report");
      expect(r.structured).toMatchObject({ outcome: "revoked" });
      expect(String(r.structured.reason)).toMatch(reason);
      const [row] = await records(v.subject);
      await expectNothingDone(v.subject, row!.id);
      await c.close();
    },
  );

  it("an operator's revocation of the record while the person answers refuses the answer too, in both revisions", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    expect(await revokeRecords(mcp.db, OPERATOR, { ids: [recordId] }, "suspicious request")).toEqual([recordId]);
    expectStateRefused(
      await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } }),
      "revoked",
    );
    await expectNothingDone(u.subject, recordId);

    const v = await user();
    const c = await connectClient(mcp.resource, v.token, {
      capabilities: { elicitation: { form: {} } },
      answer: async () => {
        const [row] = await records(v.subject);
        await revokeRecords(mcp.db, OPERATOR, { ids: [row!.id] }, "suspicious request");
        return { action: "accept", content: VALID };
      },
    });
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "revoked" });
    expect(r.structured.report).toBeUndefined();
    const [row] = await records(v.subject);
    await expectNothingDone(v.subject, row!.id);
    expect((await recordEvents(mcp.db, row!.id)).filter((e) => e.toState === "revoked")).toMatchObject([
      { actorId: OPERATOR.id, reason: "suspicious request" },
    ]);
    await c.close();
  });

  it("an unrelated switch (mode:url) stops no form answer", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    await engageKillSwitch(mcp.db, OPERATOR, { scope: "mode:url", reason: "url only" });
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent" });
    const ok = await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } });
    expect(ok.result).toMatchObject({ structuredContent: { outcome: "completed", record: recordId } });
  });
});

/** A 2025-11-25 session opened by hand: its id, after initialize and initialized. */
async function rawSession(token: string, protocolVersion = "2025-11-25") {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(mcp.resource, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion, capabilities: { elicitation: { form: {} } }, clientInfo: { name: "raw-red-team", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  await init.text();
  const sid = init.headers.get("mcp-session-id")!;
  expect(sid).toMatch(/^[\x21-\x7e]{16,}$/); // visible ASCII only, as the transport spec requires
  const post = (body: unknown, version: string | undefined = protocolVersion) =>
    fetch(mcp.resource, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": sid, ...(version ? { "mcp-protocol-version": version } : {}) },
      body: JSON.stringify(body),
    });
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  expect(initialized.status).toBe(202);
  return { sid, post };
}

describe("F2: no JSON-RPC batches, in either revision", () => {
  const BATCH_ERROR = {
    jsonrpc: "2.0",
    error: { code: -32600, message: "invalid request: batching is not supported; send one JSON-RPC message per HTTP request" },
    id: null,
  };

  it("100 tools/call in one POST on a 2025-11-25 session: refused whole, nothing runs, no record", async () => {
    const u = await user();
    const { post } = await rawSession(u.token);
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: "2.0",
      id: 100 + i,
      method: "tools/call",
      params: { name: "generate_report", arguments: { environment: "staging", format: "pdf" } },
    }));
    const res = await post(batch);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(BATCH_ERROR);
    const asks = Array.from({ length: 20 }, (_, i) => ({
      jsonrpc: "2.0",
      id: 300 + i,
      method: "tools/call",
      params: { name: "generate_report", arguments: {} },
    }));
    expect((await post(asks)).status).toBe(400);
    expect(await records(u.subject)).toHaveLength(0);
    // The session itself is untouched: one call still works.
    const one = await post({
      jsonrpc: "2.0",
      id: 500,
      method: "tools/call",
      params: { name: "generate_report", arguments: { environment: "staging", format: "pdf" } },
    });
    expect(one.status).toBe(200);
    expect(await one.text()).toContain('"outcome":"completed"');
  });

  it("a batch of 2026-07-28 calls (each with its envelope) is refused the same way; nothing is recorded", async () => {
    const u = await user();
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "generate_report", arguments: {}, _meta: envelope() },
    });
    const res = await fetch(mcp.resource, {
      method: "POST",
      headers: {
        authorization: `Bearer ${u.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "generate_report",
      },
      body: JSON.stringify([call(1), call(2), call(3)]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(BATCH_ERROR);
    expect(await records(u.subject)).toHaveLength(0);
  });
});

describe("F6: every tool's input is closed; undeclared arguments are refused before the tool runs, in both revisions", () => {
  const SNEAKY = { password: "hunter2-canary-9c1", token: "ghp_8fK2mQ9xL4vR7tZ1wN6pB3sD5hJ0yC2eA9uX" };

  it.each(["v1", "v2-pinned"] as const)(
    "%s client: listed schemas say additionalProperties false; undeclared arguments refused for every tool",
    async (kind) => {
      const u = await user();
      const caps = { elicitation: { form: {}, url: {} } };
      const c =
        kind === "v1"
          ? await connectClient(mcp.resource, u.token, { capabilities: caps, answer: () => ({ action: "decline" }) })
          : await connectV2Client(mcp.resource, u.token, { mode: "pin", capabilities: caps, answer: () => ({ action: "decline" }) });
      const { tools } = await c.client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual([
        "describe_capabilities",
        "generate_report",
        "list_repositories",
        "purge_report_cache",
      ]);
      for (const tool of tools) expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      for (const name of ["purge_report_cache", "list_repositories", "describe_capabilities", "generate_report"]) {
        for (const args of [SNEAKY, { ...SNEAKY, environment: "staging", format: "pdf" }]) {
          const r = await c.call(name, args);
          expect(r.isError).toBe(true);
          // The SDK's own refusal, before the handler; the 1.x client's text carries its "MCP error -32602: " prefix.
          expect(r.text).toMatch(new RegExp(`^(MCP error -32602: )?Input validation error: Invalid arguments for tool ${name}`));
          expect(r.text).not.toMatch(/hunter2|ghp_/);
          expect(r.structured.outcome).toBeUndefined();
        }
      }
      // Nothing ran: no record, no approval request.
      expect(await records(u.subject)).toHaveLength(0);
      expect(await mcp.db.select().from(approvals).where(eq(approvals.requestedBy, u.subject))).toHaveLength(0);
      // Declared arguments (and none, for tools that take none) still work.
      expect((await c.call("describe_capabilities")).isError).toBe(false);
      expect((await c.call("generate_report", { environment: "staging", format: "pdf" })).structured).toMatchObject({
        outcome: "completed",
      });
      await c.close();
    },
  );
});

describe("F6: the conformance fixtures keep the arguments the suite sends", () => {
  afterEach(() => {
    delete process.env.MCP_CONFORMANCE_FIXTURES;
    delete process.env.FLOW_NEW_STAGE;
  });

  it.each(["v1", "v2-pinned"] as const)(
    "%s client: test_elicitation takes the suite's message (declared), and refuses anything else",
    async (kind) => {
      // As `npm run conformance` serves them: the fixtures, and new flows open to everyone.
      Object.assign(process.env, { MCP_CONFORMANCE_FIXTURES: "true", FLOW_NEW_STAGE: "canary:100" });
      const u = await user();
      const caps = { elicitation: { form: {} } };
      const answer = () => ({ action: "accept" as const, content: { username: "conformance-user" } });
      const c =
        kind === "v1"
          ? await connectClient(mcp.resource, u.token, { capabilities: caps, answer })
          : await connectV2Client(mcp.resource, u.token, { mode: "pin", capabilities: caps, answer });
      const ok = await c.call("test_elicitation", { message: "Please provide your information" });
      expect(ok.text).toBe('Elicitation completed: action=accept, content={"username":"conformance-user"}');
      const refused = await c.call("test_elicitation", { message: "x", token: "ghp_8fK2mQ9xL4vR7tZ1wN6pB3sD5hJ0yC2eA9uX" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/Input validation error/);
      expect((await records(u.subject)).map((r) => r.state)).toEqual(["completed"]);
      await c.close();
    },
  );
});

describe("requestState: one encoding (I1), one refusal for 'not yours' (I4), bound to the OAuth client (I5)", () => {
  const refusals = (actor: string) =>
    mcp.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "request_state.refused"), eq(auditLog.actorId, actor)));
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  it("I1: a state re-encoded with the unused low bits of its last character flipped is refused; the issued one still works", async () => {
    // The encoded length depends on the subject's length: find a user whose state ends on a character with unused bits.
    let found: { u: Awaited<ReturnType<typeof user>>; round: Awaited<ReturnType<typeof firstRound>> } | undefined;
    for (let pad = 0; pad < 8 && !found; pad++) {
      const u = await user({ subject: `user-red-enc-${"x".repeat(pad)}-${Date.now()}` });
      const round = await firstRound(u);
      if ((round.state.length - 3) % 4 === 3) found = { u, round };
    }
    expect(found).toBeDefined();
    const { u, round } = found!;
    const last = ALPHABET.indexOf(round.state.at(-1)!);
    const variant = round.state.slice(0, -1) + ALPHABET[last ^ 1]!;
    expect(Buffer.from(variant.slice(3), "base64url")).toEqual(Buffer.from(round.state.slice(3), "base64url"));
    expectStateRefused(
      await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: variant, inputResponses: accept(round.key) } }),
      "malformed",
    );
    expect(await getRecord(mcp.db, round.recordId)).toMatchObject({ state: "sent" });
    const ok = await callTool(mcp.resource, u.token, "generate_report", {
      retry: { requestState: round.state, inputResponses: accept(round.key) },
    });
    expect(ok.result).toMatchObject({ structuredContent: { outcome: "completed", record: round.recordId } });
  });

  it("I4 + I5: another user, the same subject in another tenant, and the same person through another OAuth client all read the same; the audit keeps the precise reason", async () => {
    const owner = await user({ clientId: "claude-code" });
    const round = await firstRound(owner);
    const others = [
      { who: await user({ clientId: "claude-code" }), precise: "other_user" },
      { who: await user({ clientId: "claude-code", tenant: "globex", subject: owner.subject }), precise: "other_tenant" },
      { who: await user({ subject: owner.subject }), precise: "other_client" }, // ctl, same person
      { who: await user({ subject: owner.subject, clientId: "cursor" }), precise: "other_client" },
    ];
    const messages = new Set<string>();
    for (const { who } of others) {
      const r = await callTool(mcp.resource, who.token, "generate_report", {
        retry: { requestState: round.state, inputResponses: accept(round.key) },
      });
      expectStateRefused(r, "other_caller");
      messages.add(r.error!.message);
    }
    expect([...messages]).toEqual([
      "Invalid requestState: it was not issued to this caller. Nothing was done; call generate_report again without it to start over.",
    ]);
    const audited = await mcp.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "request_state.refused"), inArray(auditLog.actorId, [owner.subject, others[0]!.who.subject])));
    expect(audited.map((a) => (a.detail as { reason: string }).reason).sort()).toEqual([
      "other_client",
      "other_client",
      "other_tenant",
      "other_user",
    ]);
    expect(await refusals(others[0]!.who.subject)).toHaveLength(1);
    // The record is untouched and the owner, through the client it was issued to, completes it.
    expect(await getRecord(mcp.db, round.recordId)).toMatchObject({ state: "sent" });
    const ok = await callTool(mcp.resource, owner.token, "generate_report", {
      retry: { requestState: round.state, inputResponses: accept(round.key) },
    });
    expect(ok.result).toMatchObject({ structuredContent: { outcome: "completed", record: round.recordId } });
  });
});

describe("I2: a 2025-11-25 session answers only in its negotiated version", () => {
  const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

  it("an older version in the header is refused with 400; the negotiated one (or none) is served", async () => {
    const u = await user();
    const { post } = await rawSession(u.token);
    for (const older of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
      const res = await post(list(2), older);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: {
          code: -32000,
          message: `Bad Request: MCP-Protocol-Version ${older} does not match this session's negotiated version 2025-11-25`,
        },
        id: 2,
      });
    }
    expect((await post(list(3), "2026-07-28")).status).toBe(400);
    const ok = await post(list(4));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("generate_report");
    expect((await post(list(5), undefined)).status).toBe(200);
  });

  it("a session negotiated at 2025-03-26 cannot switch to 2025-11-25 either", async () => {
    const u = await user();
    const { post } = await rawSession(u.token, "2025-03-26");
    expect((await post(list(2), "2025-11-25")).status).toBe(400);
    expect((await post(list(3), "2025-03-26")).status).toBe(200);
  });
});
