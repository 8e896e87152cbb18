// A workflow that needs two inputs in sequence, in the 2026-07-28 era: each round re-runs it, and
// the first answer comes back from the sealed requestState, so the official v2 client pinned to
// 2026-07-28 finishes in three rounds instead of being asked step 1 for ever. The carried answer is
// never stored or readable; replayed or foreign round-2 states are refused like any other; the
// 2025-11-25 era asks both forms inside the one call, with the same records.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, elicitationEvents, elicitationRecords } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { seedDemo } from "@/lib/demo/seed";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { connectV2Client, type V2Mode } from "../helpers/mcp-client-v2";
import { callTool } from "../helpers/mcp-modern-raw";
import { createTestStore, type TestStore } from "../helpers/test-store";

const TOOL = "test_input_required_result_multi_round";
let t: TestStore;
let app: TestAppServer;
let resource: string;

beforeAll(async () => {
  // The two-need workflow here is the conformance suite's multi-round fixture, served on the same engine.
  Object.assign(process.env, { MCP_CONFORMANCE_FIXTURES: "true", ELICITATION_COOLDOWN_SECONDS: "0" });
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
  await seedDemo(t.store.db, { records: 1, appUrl: app.baseUrl });
});
afterAll(async () => {
  delete process.env.MCP_CONFORMANCE_FIXTURES;
  delete process.env.ELICITATION_COOLDOWN_SECONDS;
  await app?.close();
  await t?.dispose();
});

async function user() {
  const subject = `two-needs-${randomUUID()}`;
  return {
    subject,
    token: await mintMcpAccessToken(createDevProvider(), { subject, tenant: "acme", ttlSeconds: 600, mcpResource: resource }),
  };
}
const recordsOf = (subject: string) =>
  t.store.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject)).orderBy(elicitationRecords.createdAt);

/** Answers step 1 with a planted canary name, step 2 with a colour; records what it was asked. */
function scripted(canary: string) {
  return (req: { message: string }) => ({
    action: "accept" as const,
    content: (req.message.startsWith("Step 1") ? { name: canary } : { color: "blue" }) as Record<string, string>,
  });
}

describe.each<[V2Mode, string]>([
  ["pin", "2026-07-28"],
  ["legacy", "2025-11-25"],
])("two needs in sequence, v2 client (%s)", (mode, revision) => {
  it("asks each need once, completes, and stores no answer", async () => {
    const u = await user();
    const canary = `canary-${randomUUID()}`;
    const c = await connectV2Client(resource, u.token, { mode, capabilities: { elicitation: { form: {} } }, answer: scripted(canary) });
    try {
      const r = await c.call(TOOL);
      expect(r.isError).toBe(false);
      expect(r.text).toBe(`Elicitation completed: name=${canary}, color=blue`);
      // Step 1 once, step 2 once: no loop.
      expect(c.received.map((q) => q.message)).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
    } finally {
      await c.close();
    }
    const rows = await recordsOf(u.subject);
    expect(rows.map((x) => [x.fieldNames, x.state, x.protocolVersion])).toEqual([
      [["name"], "completed", revision],
      [["color"], "completed", revision],
    ]);
    // The carried answer reached no column, event or audit entry.
    const events = await t.store.db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, rows[0]!.id));
    const audit = await t.store.db.select().from(auditLog).where(eq(auditLog.actorId, u.subject));
    expect(JSON.stringify([rows, events, audit])).not.toContain(canary);
  });
});

describe("the carried answer in the sealed state (raw 2026-07-28 requests)", () => {
  async function twoRounds(u: { token: string }, canary: string) {
    const r1 = await callTool(resource, u.token, TOOL);
    expect(r1.result).toMatchObject({ resultType: "input_required", inputRequests: { step1: { method: "elicitation/create" } } });
    const r2 = await callTool(resource, u.token, TOOL, {
      retry: { requestState: r1.result!.requestState!, inputResponses: { step1: { action: "accept", content: { name: canary } } } },
    });
    expect(r2.result).toMatchObject({ resultType: "input_required", inputRequests: { step2: { method: "elicitation/create" } } });
    expect(r2.result!.requestState).not.toBe(r1.result!.requestState);
    return { s1: r1.result!.requestState!, s2: r2.result!.requestState! };
  }

  it("is unreadable in the state, used once, and refused for another user or after a replay", async () => {
    const u = await user();
    const canary = `canary-${randomUUID()}`;
    const { s1, s2 } = await twoRounds(u, canary);
    for (const form of [s2, Buffer.from(s2.slice(3), "base64url").toString("latin1")]) expect(form).not.toContain(canary);

    // Another user cannot use the state (and learns nothing from it).
    const mallory = await user();
    const foreign = await callTool(resource, mallory.token, TOOL, {
      retry: { requestState: s2, inputResponses: { step2: { action: "accept", content: { color: "red" } } } },
    });
    expect(foreign.error).toMatchObject({ code: -32602, data: { reason: "other_caller" } });
    expect(JSON.stringify(foreign)).not.toContain(canary);
    expect(await recordsOf(mallory.subject)).toHaveLength(0);

    const done = await callTool(resource, u.token, TOOL, {
      retry: { requestState: s2, inputResponses: { step2: { action: "accept", content: { color: "green" } } } },
    });
    expect(done.result).toMatchObject({
      structuredContent: { outcome: "completed" },
      content: [{ type: "text", text: `Elicitation completed: name=${canary}, color=green` }],
    });
    // Round 2's state again, or round 1's: both records have moved on, nothing more is written.
    for (const s of [s2, s1]) {
      const again = await callTool(resource, u.token, TOOL, {
        retry: {
          requestState: s,
          inputResponses: { step1: { action: "accept", content: { name: "x" } }, step2: { action: "accept", content: { color: "x" } } },
        },
      });
      expect(again.error).toMatchObject({ code: -32602, data: { reason: "replayed" } });
    }
    expect((await recordsOf(u.subject)).map((r) => r.state)).toEqual(["completed", "completed"]);
  });

  it("an earlier answer whose record an operator revoked in between ends the call, asks nothing again", async () => {
    const u = await user();
    const { s2 } = await twoRounds(u, "Alice");
    const [first] = await recordsOf(u.subject);
    // Revoked after it was answered (a hand edit stands in for any later end of that record).
    await t.store.db
      .update(elicitationRecords)
      .set({ state: "revoked" })
      .where(and(eq(elicitationRecords.id, first!.id)));
    const r = await callTool(resource, u.token, TOOL, {
      retry: { requestState: s2, inputResponses: { step2: { action: "accept", content: { color: "green" } } } },
    });
    expect(r.result).toMatchObject({ isError: true });
    expect(r.result?.resultType).not.toBe("input_required");
    expect(await recordsOf(u.subject)).toHaveLength(2);
  });

  it("a declined second step is reported as declined, the first answer not asked again", async () => {
    const u = await user();
    const { s2 } = await twoRounds(u, "Alice");
    const r = await callTool(resource, u.token, TOOL, { retry: { requestState: s2, inputResponses: { step2: { action: "decline" } } } });
    expect(r.result).toMatchObject({ structuredContent: { outcome: "declined" } });
    expect((await recordsOf(u.subject)).map((x) => x.state)).toEqual(["completed", "declined"]);
  });
});
