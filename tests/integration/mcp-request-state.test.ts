// The sealed requestState of the 2026-07-28 era, attacked over real HTTP: altered, replayed,
// expired, another user's, another tenant's, other arguments, another tool's, garbage. Each is
// refused with a clear error and an audit entry, and never creates a second record or a grant.
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, elicitationRecords } from "@/db/schema";
import { completeCallback, continueConnect } from "@/lib/connect/flow";
import { engineConfig } from "@/lib/elicitation/config";
import { reconcileStaleRecords, RECONCILE_GRACE_MS } from "@/lib/elicitation/reconcile";
import { getRecord, recordEvents } from "@/lib/elicitation/records";
import { rollupDrift } from "@/lib/metrics/rollup-check";
import { useMcpApp } from "../helpers/mcp-app";
import { forgetConnection, grantCount } from "../helpers/url-mode-reset";
import { callTool, type RawAnswer } from "../helpers/mcp-modern-raw";
import { loginAtProvider } from "../helpers/provider-login";

const mcp = useMcpApp({ records: 10, appUrl: "server" });
let n = 0;

afterEach(() => {
  delete process.env.ELICITATION_TIMEOUT_SECONDS;
});

async function user(tenant = "acme", subject = `user-state-${++n}-${Date.now()}`) {
  const token = await mcp.token({ subject, tenant });
  return { subject, tenant, token };
}

const VALID = { environment: "production", format: "csv" };
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));
const refusals = (actor: string) =>
  mcp.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "request_state.refused"), eq(auditLog.actorId, actor)));

/** First round: the call ends with input_required; returns the sealed state and the record it names. */
async function firstRound(u: { subject: string; token: string }, tool = "generate_report", args: Record<string, unknown> = {}) {
  const r = await callTool(mcp.resource, u.token, tool, { args });
  expect(r.result).toMatchObject({ resultType: "input_required" });
  const state = r.result!.requestState!;
  const [key] = Object.keys(r.result!.inputRequests!);
  const rows = await records(u.subject);
  expect(rows).toHaveLength(1);
  return { state, key: key!, recordId: rows[0]!.id, request: r.result!.inputRequests![key!]! };
}

const accept = (key: string, content: Record<string, unknown> = VALID) => ({ [key]: { action: "accept", content } });

/** A JSON-RPC error carrying the request's id: nothing was dispatched. */
function expectRefused(r: RawAnswer, reason: string) {
  expect(r.status).toBe(200);
  expect(r.result).toBeUndefined();
  expect(r.id).toEqual(expect.any(Number));
  expect(r.error).toMatchObject({ code: -32602, data: { reason } });
  expect(r.error!.message).toMatch(/^Invalid requestState: it .*\. Nothing was done; call [a-z_]+ again without it to start over\.$/);
}

describe("the first round", () => {
  it("ends the call with an input request and a sealed state that reads as nothing", async () => {
    const u = await user();
    const { state, key, recordId, request } = await firstRound(u);
    expect(key).toBe("report_parameters");
    expect(request).toMatchObject({ method: "elicitation/create", params: { mode: "form", requestedSchema: { type: "object" } } });
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent", protocolVersion: "2026-07-28" });
    // Opaque: no subject, tenant, tool or record id, in clear or base64.
    const decoded = Buffer.from(state.slice(3), "base64url").toString("latin1");
    for (const s of [u.subject, "acme", "generate_report", recordId]) {
      expect(state).not.toContain(s);
      expect(decoded).not.toContain(s);
    }
  });
});

describe("refused states change nothing and are audited", () => {
  it("altered: one character changed", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    const i = state.length - 5;
    const altered = state.slice(0, i) + (state[i] === "A" ? "B" : "A") + state.slice(i + 1);
    expectRefused(
      await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: altered, inputResponses: accept(key) } }),
      "altered",
    );
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "sent" }]);
    expect(await refusals(u.subject)).toMatchObject([{ targetId: "unknown", detail: { reason: "altered", tool: "generate_report" } }]);
  });

  it("garbage and oversized states", async () => {
    const u = await user();
    const { key, recordId } = await firstRound(u);
    for (const bad of ["", "v1.", "v1.!!!!", "v2.AAAA", `v1.${"A".repeat(20000)}`, "__proto__", "constructor"]) {
      expectRefused(
        await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: bad, inputResponses: accept(key) } }),
        "malformed",
      );
    }
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "sent" }]);
    expect((await refusals(u.subject)).length).toBe(7);
  });

  it("replayed: the answer is used once; the same state again is refused and writes nothing", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    const ok = await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } });
    expect(ok.result).toMatchObject({ structuredContent: { outcome: "completed", record: recordId } });
    const replay = await callTool(mcp.resource, u.token, "generate_report", {
      retry: { requestState: state, inputResponses: accept(key, { environment: "staging", format: "pdf" }) },
    });
    expectRefused(replay, "replayed");
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "completed" }]);
    expect(await refusals(u.subject)).toMatchObject([{ targetId: recordId, detail: { reason: "replayed" } }]);
  });

  it("replayed concurrently: exactly one of two simultaneous retries is used", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    const both = await Promise.all(
      [0, 1].map(() => callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } })),
    );
    const outcomes = both.map((r) => r.result?.structuredContent?.outcome).sort();
    expect(outcomes.filter((o) => o === "completed")).toHaveLength(1);
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "completed" }]);
  });

  it("expired: refused, and the unanswered record is closed as timed out", async () => {
    const u = await user();
    process.env.ELICITATION_TIMEOUT_SECONDS = "0";
    const { state, key, recordId } = await firstRound(u);
    delete process.env.ELICITATION_TIMEOUT_SECONDS;
    expectRefused(
      await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } }),
      "expired",
    );
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "timed_out" }]);
    expect(await refusals(u.subject)).toMatchObject([{ targetId: recordId, detail: { reason: "expired" } }]);
  });

  it("another user's state: refused for the other user, the owner's record untouched and still usable", async () => {
    const alice = await user();
    const mallory = await user();
    const { state, key, recordId } = await firstRound(alice);
    expectRefused(
      await callTool(mcp.resource, mallory.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } }),
      "other_caller",
    );
    expect(await records(mallory.subject)).toHaveLength(0);
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent" });
    expect(await refusals(mallory.subject)).toMatchObject([{ detail: { reason: "other_user" } }]);
    const owner = await callTool(mcp.resource, alice.token, "generate_report", {
      retry: { requestState: state, inputResponses: accept(key) },
    });
    expect(owner.result).toMatchObject({ structuredContent: { outcome: "completed" } });
  });

  it("the same subject in another tenant", async () => {
    const u = await user("acme");
    const other = await user("globex", u.subject);
    const { state, key, recordId } = await firstRound(u);
    expectRefused(
      await callTool(mcp.resource, other.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } }),
      "other_caller",
    );
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent" });
  });

  it("other arguments, or another tool", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    expectRefused(
      await callTool(mcp.resource, u.token, "generate_report", {
        args: { environment: "production" },
        retry: { requestState: state, inputResponses: accept(key) },
      }),
      "other_arguments",
    );
    expectRefused(
      await callTool(mcp.resource, u.token, "list_repositories", { retry: { requestState: state, inputResponses: accept(key) } }),
      "other_tool",
    );
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "sent" }]);
  });

  it("a retry without a usable answer (missing, wrongly keyed, not an elicitation result)", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    for (const responses of [
      {},
      { other: { action: "accept", content: VALID } },
      { [key]: { action: "maybe" } },
      { [key]: { action: "accept", content: "text" } },
      { ["__proto__"]: { action: "accept" } },
    ]) {
      expectRefused(
        await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: responses } }),
        "no_answer",
      );
    }
    expect(await records(u.subject)).toMatchObject([{ id: recordId, state: "sent" }]);
  });
});

describe("abandoned modern records", () => {
  it("a first round nobody answers is closed by the reconciler after the form timeout, and its state is then refused", async () => {
    const u = await user();
    const { state, key, recordId } = await firstRound(u);
    const cfg = engineConfig();
    // Not before: inside the timeout the record is still answerable.
    await reconcileStaleRecords(mcp.db, cfg, new Date(Date.now() + cfg.formTimeoutMs - 1000));
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "sent" });
    await reconcileStaleRecords(mcp.db, cfg, new Date(Date.now() + cfg.formTimeoutMs + RECONCILE_GRACE_MS + 1000));
    // "Nobody answered in time", as in the other era; not a disconnect, and said in this era's words.
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "timed_out", endReason: null });
    expect((await recordEvents(mcp.db, recordId)).at(-1)).toMatchObject({
      toState: "timed_out",
      actorId: "reconciler",
      reason: "the request state expired and no retry arrived",
    });
    expectRefused(
      await callTool(mcp.resource, u.token, "generate_report", { retry: { requestState: state, inputResponses: accept(key) } }),
      "replayed",
    );
    expect(await records(u.subject)).toHaveLength(1);
    expect(await rollupDrift(mcp.db)).toEqual([]);
  });

  it("an abandoned URL request ends as expired at its link's expiry (the sealed state's expiry), as in the other era", async () => {
    const u = await user();
    const r = await callTool(mcp.resource, u.token, "list_repositories");
    expect(r.result).toMatchObject({ resultType: "input_required" });
    const [row] = await records(u.subject);
    expect(row).toMatchObject({ mode: "url", state: "sent", protocolVersion: "2026-07-28" });
    const cfg = engineConfig();
    await reconcileStaleRecords(mcp.db, cfg, new Date(row!.expiresAt!.getTime() - 1000));
    expect(await getRecord(mcp.db, row!.id)).toMatchObject({ state: "sent" });
    await reconcileStaleRecords(mcp.db, cfg, new Date(row!.expiresAt!.getTime() + 1000));
    expect(await getRecord(mcp.db, row!.id)).toMatchObject({ state: "expired", endReason: null });
    expect((await recordEvents(mcp.db, row!.id)).at(-1)).toMatchObject({ toState: "expired", actorId: "reconciler" });
    const [key] = Object.keys(r.result!.inputRequests!);
    // (The state itself has not expired in real time here; its record has ended, so a retry is a replay.)
    expectRefused(
      await callTool(mcp.resource, u.token, "list_repositories", {
        retry: { requestState: r.result!.requestState!, inputResponses: { [key!]: { action: "accept" } } },
      }),
      "replayed",
    );
  });
});

describe("answers in inputResponses are validated exactly as today", () => {
  it("extra properties, a credential shape and a schema violation are refused by field and keyword", async () => {
    for (const [content, field] of [
      // An unexpected property is recorded without its name: the name is the client's choice.
      [{ ...VALID, extra: "x" }, "(unexpected)"],
      [{ ...VALID, title: "ghp_8fK2mQ9xL4vR7tZ1wN6pB3sD5hJ0yC2eA9uX" }, "title"],
      [{ environment: "moon", format: "csv" }, "environment"],
    ] as const) {
      const u = await user();
      const { state, key, recordId } = await firstRound(u);
      const r = await callTool(mcp.resource, u.token, "generate_report", {
        retry: { requestState: state, inputResponses: accept(key, content) },
      });
      expect(r.result).toMatchObject({ isError: true, structuredContent: { outcome: "invalid" } });
      const row = await getRecord(mcp.db, recordId);
      expect(row).toMatchObject({ state: "validation_failed" });
      expect(JSON.stringify(row!.validationErrors)).toContain(field);
      expect(JSON.stringify(row)).not.toContain("ghp_");
      expect(JSON.stringify(row)).not.toContain("moon");
    }
  });
});

describe("URL mode: the retry finds the grant; a state never creates a second grant", () => {
  const ALICE = { subject: "user-alice-1001", tenant: "acme" };
  const reset = () => forgetConnection(mcp.db, ALICE.subject);
  const grants = () => grantCount(mcp.db, ALICE.subject);

  it("input request for the connect page; completes after the browser flow; reused state writes nothing", async () => {
    await reset();
    const u = await user(ALICE.tenant, ALICE.subject);
    const r = await callTool(mcp.resource, u.token, "list_repositories");
    expect(r.result).toMatchObject({ resultType: "input_required" });
    const [key] = Object.keys(r.result!.inputRequests!);
    const url = String(r.result!.inputRequests![key!]!.params.url);
    const id = new URL(url).pathname.split("/").at(-1)!;
    expect(url).toBe(`${mcp.baseUrl}/connect/${id}`);
    const state = r.result!.requestState!;
    // The browser part, as the person does it.
    const go = await continueConnect(mcp.db, id, { sub: ALICE.subject, tenant: ALICE.tenant });
    if (!go.ok) throw new Error(go.problem);
    const callback = await loginAtProvider(go.location, "alice", `${mcp.baseUrl}/connect/callback`);
    expect(await completeCallback(mcp.db, callback.searchParams, { sub: ALICE.subject, tenant: ALICE.tenant })).toMatchObject({ ok: true });
    const retry = await callTool(mcp.resource, u.token, "list_repositories", {
      retry: { requestState: state, inputResponses: { [key!]: { action: "accept" } } },
    });
    expect(retry.result).toMatchObject({
      structuredContent: { outcome: "completed", repositories: ["acme/reports", "acme/infrastructure", "acme/website"] },
    });
    expect(await getRecord(mcp.db, id)).toMatchObject({ state: "completed", protocolVersion: "2026-07-28" });
    const before = (await records(ALICE.subject)).length;
    // The same state again: the grant is found, nothing is created.
    const again = await callTool(mcp.resource, u.token, "list_repositories", {
      retry: { requestState: state, inputResponses: { [key!]: { action: "accept" } } },
    });
    expect(again.result).toMatchObject({ structuredContent: { outcome: "completed" } });
    expect(await grants()).toBe(1);
    expect((await records(ALICE.subject)).length).toBe(before);
  });

  it("a declined URL state cannot be replayed into an accept; another user's URL state is refused", async () => {
    await reset();
    const u = await user(ALICE.tenant, ALICE.subject);
    const r = await callTool(mcp.resource, u.token, "list_repositories");
    const [key] = Object.keys(r.result!.inputRequests!);
    const state = r.result!.requestState!;
    const declined = await callTool(mcp.resource, u.token, "list_repositories", {
      retry: { requestState: state, inputResponses: { [key!]: { action: "decline" } } },
    });
    expect(declined.result).toMatchObject({ structuredContent: { outcome: "declined" } });
    expectRefused(
      await callTool(mcp.resource, u.token, "list_repositories", {
        retry: { requestState: state, inputResponses: { [key!]: { action: "accept" } } },
      }),
      "replayed",
    );
    const mallory = await user("globex", "user-mallory-2001");
    expectRefused(
      await callTool(mcp.resource, mallory.token, "list_repositories", {
        retry: { requestState: state, inputResponses: { [key!]: { action: "accept" } } },
      }),
      "other_caller",
    );
    expect(await grants()).toBe(0);
  });
});
