// The acceptance control of issue 16, "pause a flow for N minutes", declared once in
// lib/policy/flow-pause.ts: releasers and admins only (a refusal audited), audited when it takes
// effect, the paused flow refused by the real engine over real MCP (other flows untouched), resumed
// by itself when the time is up, bad input refused with nothing changed, and never a way to shorten
// a stop. The command line (ctl-flows-pause.test.ts) and the console (e2e) run the same declaration.
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, killSwitches } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { checkOperator } from "@/lib/auth/check-operator";
import { ROLES } from "@/lib/auth/permissions";
import { controlByName } from "@/lib/controls/registry";
import { seedDemo } from "@/lib/demo/seed";
import { activeKillSwitches, engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { FlowPauseError, MAX_PAUSE_MINUTES, pauseFlow, pauseFlowControl, pauseFlowInput } from "@/lib/policy/flow-pause";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { connectClient } from "../helpers/mcp-client";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
let resource: string;
let n = 0;
const RELEASER = "op-releaser-0003";
// The seeded operators (lib/demo/accounts.ts), one per role.
const SUBJECTS: Record<(typeof ROLES)[number], string> = {
  admin: "op-admin-0001",
  operator: "op-operator-0002",
  releaser: RELEASER,
  approver: "op-approver-0004",
  auditor: "op-auditor-0005",
  viewer: "op-viewer-0006",
};
const VALID = { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" };

beforeAll(async () => {
  t = await createTestStore();
  app = await startAppServer(t.store.db);
  await seedDemo(t.store.db, { records: 0, appUrl: app.baseUrl });
  resource = `${app.baseUrl}/api/mcp`;
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const token = (clientId: string) =>
  mintMcpAccessToken(createDevProvider(), {
    subject: `user-pause-${++n}-${Date.now()}`,
    tenant: "acme",
    ttlSeconds: 600,
    mcpResource: resource,
    clientId,
  });

async function call(clientId: string, tool = "generate_report") {
  const c = await connectClient(resource, await token(clientId), {
    capabilities: { elicitation: { form: {} } },
    answer: () => ({ action: "accept", content: VALID }),
  });
  try {
    const r = await c.call(tool);
    return { ...r, asked: c.received.length };
  } finally {
    await c.close();
  }
}

const pauseAudits = async (scope: string) =>
  (
    await t.store.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "kill_switch.on"), eq(auditLog.targetId, scope)))
  ).map((a) => ({ actor: a.actorId, ...(a.detail as object) }));
const state = async () => ({
  switches: await t.store.db.select().from(killSwitches).orderBy(killSwitches.scope),
  audit: (await t.store.db.select({ n: count() }).from(auditLog))[0]!.n,
});

describe("pause a flow for N minutes", () => {
  it("is one registered declaration: releasers and admins may, every other role is refused and audited", async () => {
    expect(controlByName("pause-flow")).toBe(pauseFlowControl);
    const target = pauseFlowControl.target(
      pauseFlowInput.parse({ flowId: "generate_report:claude-code", minutes: 5, reason: "maintenance" }),
    );
    for (const role of ROLES) {
      const subject = SUBJECTS[role];
      const denied = async () =>
        (
          await t.store.db
            .select({ n: count() })
            .from(auditLog)
            .where(and(eq(auditLog.action, "access.denied"), eq(auditLog.actorId, subject), eq(auditLog.targetId, target.id)))
        )[0]!.n;
      const before = await denied();
      const check = await checkOperator(t.store.db, subject, pauseFlowControl.permission, target);
      if (role === "releaser" || role === "admin") {
        expect(check).toMatchObject({ ok: true, operator: { subject } });
        expect(await denied()).toBe(before);
      } else {
        expect(check).toEqual({ ok: false, status: 403, error: "forbidden: flow.rollback is not granted" });
        expect(await denied()).toBe(before + 1);
      }
    }
  });

  it("stops the flow with a plain message, is audited, leaves other flows alone, and resumes by itself", async () => {
    const flowId = "generate_report:claude-code";
    const scope = `flow:${flowId}`;
    expect((await call("claude-code")).structured).toMatchObject({ outcome: "completed" });
    const input = pauseFlowInput.parse({ flowId, minutes: "5", reason: "maintenance window" });
    const before = Date.now();
    const r = await pauseFlowControl.run({
      db: t.store.db,
      operator: { subject: RELEASER, displayName: "Rita", roles: ["releaser"] },
      input,
    });
    expect(r).toMatchObject({
      flowId,
      revoked: 0,
      message: expect.stringMatching(/^paused until \d{4}-\d\d-\d\d \d\d:\d\d UTC; 0 unfinished handle\(s\) revoked$/),
    });
    const until = new Date(r.pausedUntil).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(await pauseAudits(scope)).toEqual([
      { actor: RELEASER, reason: "paused for 5 min: maintenance window", expires_at: r.pausedUntil, paused_minutes: 5 },
    ]);

    const refused = await call("claude-code");
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`kill switch ${scope} is engaged (stopped by an operator)`);
    // The operator's reason stays with operators: never in what the client and the model read.
    expect(refused.text).not.toContain("maintenance window");
    expect(refused.asked).toBe(0);
    // Another client's flow of the same workflow is not paused.
    expect((await call("ctl")).structured).toMatchObject({ outcome: "completed" });

    // Nobody releases it: once its expiry has passed it is not in force. The clock is moved by
    // putting the expiry in the past, which is exactly what waiting five minutes would leave.
    expect((await activeKillSwitches(t.store.db, new Date(until + 1000))).map((k) => k.scope)).not.toContain(scope);
    await t.store.db.execute(sql`update kill_switches set expires_at = now() - interval '1 second' where scope = ${scope}`);
    const [row] = await t.store.db.select().from(killSwitches).where(eq(killSwitches.scope, scope));
    expect(row).toMatchObject({ active: true, changedBy: RELEASER });
    expect((await call("claude-code")).structured).toMatchObject({ outcome: "completed" });
  });

  it("refuses bad input and unknown flows, and changes nothing", async () => {
    const before = await state();
    const base = { flowId: "generate_report:claude-code", minutes: 5, reason: "maintenance" };
    const bad: Array<[string, unknown]> = [
      ["N = 0", { ...base, minutes: 0 }],
      ["N = '0'", { ...base, minutes: "0" }],
      ["N < 0", { ...base, minutes: "-5" }],
      ["N a week and a minute", { ...base, minutes: MAX_PAUSE_MINUTES + 1 }],
      ["huge N", { ...base, minutes: "99999999999999999999" }],
      ["N = 1e9", { ...base, minutes: 1e9 }],
      ["non-integer N", { ...base, minutes: "1.5" }],
      ["non-integer number", { ...base, minutes: 2.5 }],
      ["exponent text", { ...base, minutes: "1e3" }],
      ["words", { ...base, minutes: "ten" }],
      ["empty", { ...base, minutes: "" }],
      ["missing N", { flowId: base.flowId, reason: base.reason }],
      ["not a flow id", { ...base, flowId: "generate_report" }],
      ["a prototype key as flow", { ...base, flowId: "__proto__" }],
      ["upper case flow", { ...base, flowId: "Generate_Report:claude-code" }],
      ["no reason", { ...base, reason: "" }],
      ["control character in reason", { ...base, reason: "fine\u0000then" }],
      [
        "__proto__ key",
        JSON.parse(`{"flowId":"generate_report:claude-code","minutes":5,"reason":"maintenance","__proto__":{"admin":true}}`),
      ],
      ["constructor key", { ...base, constructor: { prototype: { admin: true } } }],
      ["extra key", { ...base, scope: "global" }],
      ["an array", [base]],
      ["null", null],
    ];
    for (const [label, raw] of bad) expect(pauseFlowInput.safeParse(raw).success, label).toBe(false);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    const unknown = pauseFlowInput.parse({ ...base, flowId: "generate_report:no-such-profile" });
    await expect(pauseFlow(t.store.db, RELEASER, unknown)).rejects.toThrow(FlowPauseError);
    await expect(pauseFlow(t.store.db, RELEASER, unknown)).rejects.toThrow(/no flow is called "generate_report:no-such-profile"/);
    expect(await state()).toEqual(before);
  });

  it("never shortens or ends a stop: over an open-ended kill switch or a longer pause it is refused", async () => {
    const flowId = "list_repositories:claude-code";
    const scope = `flow:${flowId}`;
    const releaser = { subject: RELEASER, displayName: "Rita", roles: ["releaser" as const] };
    await pauseFlowControl.run({
      db: t.store.db,
      operator: releaser,
      input: pauseFlowInput.parse({ flowId, minutes: 60, reason: "first pause" }),
    });
    await expect(pauseFlow(t.store.db, RELEASER, pauseFlowInput.parse({ flowId, minutes: 10, reason: "shorter" }))).rejects.toThrow(
      /already stopped by its kill switch for longer/,
    );
    const longer = await pauseFlow(t.store.db, RELEASER, pauseFlowInput.parse({ flowId, minutes: 120, reason: "longer" }));
    expect(longer.pausedUntil).toEqual(
      (await t.store.db.select().from(killSwitches).where(eq(killSwitches.scope, scope)))[0]!.expiresAt!.toISOString(),
    );

    await engageKillSwitch(t.store.db, { type: "operator", id: "op-operator-0002" }, { scope, reason: "incident 7" });
    try {
      const before = await state();
      await expect(
        pauseFlow(t.store.db, RELEASER, pauseFlowInput.parse({ flowId, minutes: MAX_PAUSE_MINUTES, reason: "would end the stop" })),
      ).rejects.toThrow(FlowPauseError);
      expect(await state()).toEqual(before);
      expect((await t.store.db.select().from(killSwitches).where(eq(killSwitches.scope, scope)))[0]).toMatchObject({
        active: true,
        expiresAt: null,
        reason: "incident 7",
      });
    } finally {
      await releaseKillSwitch(t.store.db, { type: "operator", id: "op-operator-0002" }, { scope, reason: "resolved" });
      await releaseKillSwitch(t.store.db, { type: "operator", id: "op-admin-0001" }, { scope, reason: "resolved" });
    }
  });
});
