// Issue 11 item 5: no self-declared value steers governance. A flow is workflow x client profile,
// and the profile comes only from the verified access token's client id (client_id, else azp),
// mapped by an admin; anything unmapped is "unregistered". clientInfo is an observation. Real SDK
// client, real Streamable HTTP, tokens from the development issuer.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvals, auditLog, elicitationRecords, flows } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide";
import { getRecord, insertRecord } from "@/lib/elicitation/records";
import { removeClientProfile, setClientProfile } from "@/lib/policy/client-profiles";
import { engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { killSwitchImpact } from "@/lib/policy/kill-switch-impact";
import { requestPromotion, rollbackFlow, setCanary } from "@/lib/policy/promotion";
import { issuerSignedToken } from "../helpers/issuer-token";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";
import { recordDraft } from "../helpers/record-draft";

const mcp = useMcpApp({ records: 10, appUrl: "server" });
let n = 0;
const ADMIN = "op-admin-0001";
const OPERATOR = "op-operator-0002";
const RELEASER = "op-releaser-0003";
const APPROVER = "op-approver-0004";
const VALID = { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" };

afterEach(() => {
  delete process.env.FLOW_NEW_STAGE;
});

const subject = () => `user-gov-${++n}-${Date.now()}`;
const token = (sub: string, clientId: string, tenant = "acme") => mcp.token({ subject: sub, tenant, clientId });
const flowIds = async () => (await mcp.db.select({ id: flows.id }).from(flows)).map((f) => f.id).sort();
const flow = async (id: string) => (await mcp.db.select().from(flows).where(eq(flows.id, id)))[0];
const recordsOf = (sub: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, sub));
const auditFor = async (targetId: string, action: string) =>
  (
    await mcp.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, targetId), eq(auditLog.action, action)))
  ).map((a) => a.detail as Record<string, unknown>);

/** One session: initialize as `name`/`version`, call `tool` once, answering any form with VALID. */
async function callAs(tok: string, tool: string, opts: { name?: string; version?: string; capabilities?: Record<string, unknown> } = {}) {
  const c = await connectClient(mcp.resource, tok, {
    name: opts.name,
    version: opts.version,
    capabilities: opts.capabilities ?? { elicitation: { form: {} } },
    answer: () => ({ action: "accept", content: VALID }),
  });
  try {
    const r = await c.call(tool);
    return { ...r, asked: c.received.length };
  } finally {
    await c.close();
  }
}

async function describeAs(tok: string, name = "test-client") {
  const r = await callAs(tok, "describe_capabilities", { name });
  return r.structured.workflows as Array<{ name: string; flow: string; profile: string; stage: string }>;
}

describe("the flow comes from the verified client id", () => {
  it("ignores clientInfo: a client calling itself another product keeps its own profile's flow", async () => {
    const before = await flowIds();
    const sub = subject();
    const tok = await token(sub, "claude-code");
    const wfs = await describeAs(tok, "Visual Studio Code");
    expect(wfs.map((w) => w.flow)).toEqual([
      "generate_report:claude-code",
      "purge_report_cache:claude-code",
      "list_repositories:claude-code",
    ]);
    const r = await callAs(tok, "generate_report", { name: "Visual Studio Code", version: "1.106.2" });
    expect(r.structured).toMatchObject({ outcome: "completed" });
    const [rec] = await recordsOf(sub);
    // The name is kept as what the client said (an observation), the flow is the token's.
    expect(rec).toMatchObject({ flowId: "generate_report:claude-code", clientName: "Visual Studio Code", clientVersion: "1.106.2" });
    expect(await flowIds()).toEqual(before);
  });

  it("takes azp when the token has no client_id, and client_id over azp when both are present", async () => {
    const azpOnly = await issuerSignedToken(mcp.resource, { sub: subject(), client_id: undefined, azp: "visual-studio-code" });
    expect((await describeAs(azpOnly))[0]).toMatchObject({ flow: "generate_report:visual-studio-code", profile: "visual-studio-code" });
    const both = await issuerSignedToken(mcp.resource, { sub: subject(), client_id: "codex", azp: "visual-studio-code" });
    expect((await describeAs(both))[0]).toMatchObject({ flow: "generate_report:codex" });
  });

  it.each([
    ["a client id no admin mapped", "b4c1f7f6-0e4e-4a55-9a57-6d7c33c1a001"],
    ["a 300-character client id", "c".repeat(300)],
    ["a client id that looks like a profile", "claude-code-2"],
    ["a prototype key", "__proto__"],
    ["constructor", "constructor"],
    ["no client id at all", undefined],
  ])('puts %s in the one profile "unregistered"', async (_name, clientId) => {
    const before = await flowIds();
    const wfs = await describeAs(
      await issuerSignedToken(mcp.resource, { sub: subject(), client_id: clientId }),
      `renamed-${clientId ?? "none"}`,
    );
    expect(wfs.map((w) => w.flow)).toEqual([
      "generate_report:unregistered",
      "purge_report_cache:unregistered",
      "list_repositories:unregistered",
    ]);
    expect(await flowIds()).toEqual(before);
  });

  it("a client id whose mapping an admin removed is unregistered again (and back when mapped)", async () => {
    await removeClientProfile(mcp.db, ADMIN, { clientId: "codex" });
    try {
      expect((await describeAs(await token(subject(), "codex")))[0]).toMatchObject({
        flow: "generate_report:unregistered",
        profile: "unregistered",
      });
    } finally {
      await setClientProfile(mcp.db, ADMIN, { clientId: "codex", profileId: "codex", displayName: "Codex" });
    }
    expect((await describeAs(await token(subject(), "codex")))[0]).toMatchObject({ flow: "generate_report:codex" });
    expect((await auditFor("codex", "client_profile.removed")).length).toBe(1);
    expect(await auditFor("codex", "client_profile.set")).toContainEqual({ profile: "codex", previous_profile: null });
  });
});

describe("after a rollback, no self-declared name gets through", () => {
  const FLOW = "generate_report:cursor";
  beforeAll(async () => {
    await rollbackFlow(mcp.db, RELEASER, FLOW, "incident under investigation");
  });

  it.each([
    ["the same name", "cursor-vscode"],
    ["a new name", "sectest-gov-2"],
    ["a 300-character name", "x".repeat(300)],
    ["a unicode look-alike", "Ｃｕｒｓｏｒ\u200b 🚀"],
    ["__proto__", "__proto__"],
    ["constructor", "constructor"],
    ["the name of another, promoted client", "claude-code"],
    ["unregistered", "unregistered"],
  ])("%s is still blocked and creates no flow", async (_label, name) => {
    const before = await flowIds();
    const sub = subject();
    const r = await callAs(await token(sub, "cursor"), "generate_report", { name, version: "9.9.9" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`flow ${FLOW} is rolled back`);
    expect(r.asked).toBe(0);
    const [rec] = await recordsOf(sub);
    expect(rec).toMatchObject({ flowId: FLOW, state: "not_sent", routeDecision: "blocked" });
    expect(await flowIds()).toEqual(before);
    expect(await flow(FLOW)).toMatchObject({ stage: "rolled_back" });
  });
});

describe("new flows enter at FLOW_NEW_STAGE", () => {
  it("keeps a new unregistered flow off by default (FLOW_NEW_STAGE unset), with an audit entry", async () => {
    // purge_report_cache has no records in the seed, so its unregistered flow can be made new.
    await mcp.db.delete(flows).where(eq(flows.id, "purge_report_cache:unregistered"));
    const sub = subject();
    const r = await callAs(await issuerSignedToken(mcp.resource, { sub, client_id: "dynamically-registered-1" }), "purge_report_cache");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("flow purge_report_cache:unregistered is off");
    expect(await flow("purge_report_cache:unregistered")).toMatchObject({ stage: "off", canaryPercent: 0, profileId: "unregistered" });
    expect(await auditFor("purge_report_cache:unregistered", "flow.created")).toEqual([
      expect.objectContaining({ stage: "off", canary_percent: 0, profile: "unregistered" }),
    ]);
    expect(await mcp.db.select().from(approvals).where(eq(approvals.requestedBy, sub))).toEqual([]);
  });

  it("a profile an admin creates starts off too, and admits once a releaser sets a canary", async () => {
    await setClientProfile(mcp.db, ADMIN, { clientId: "jetbrains", profileId: "jetbrains-next", displayName: "JetBrains (next)" });
    try {
      const r = await callAs(await token(subject(), "jetbrains"), "generate_report");
      expect(r.text).toContain("flow generate_report:jetbrains-next is off");
      await setCanary(mcp.db, RELEASER, "generate_report:jetbrains-next", 100, "first canary for the new profile");
      const ok = await callAs(await token(subject(), "jetbrains"), "generate_report");
      expect(ok.structured).toMatchObject({ outcome: "completed" });
      expect(await auditFor("generate_report:jetbrains-next", "flow.canary_set")).toEqual([
        { reason: "first canary for the new profile", percent: 100, from_stage: "off", from_percent: 0 },
      ]);
    } finally {
      await setClientProfile(mcp.db, ADMIN, { clientId: "jetbrains", profileId: "jetbrains", displayName: "JetBrains AI Assistant" });
    }
  });

  it("FLOW_NEW_STAGE=canary:N creates new flows in that canary", async () => {
    process.env.FLOW_NEW_STAGE = "canary:100";
    await setClientProfile(mcp.db, ADMIN, {
      clientId: "claude-desktop",
      profileId: "claude-desktop-beta",
      displayName: "Claude Desktop beta",
    });
    try {
      const r = await callAs(await token(subject(), "claude-desktop"), "generate_report");
      expect(r.structured).toMatchObject({ outcome: "completed" });
      expect(await flow("generate_report:claude-desktop-beta")).toMatchObject({ stage: "canary", canaryPercent: 100 });
    } finally {
      await setClientProfile(mcp.db, ADMIN, { clientId: "claude-desktop", profileId: "claude-desktop", displayName: "Claude Desktop" });
    }
  });
});

describe("the fingerprint is built from trusted inputs only", () => {
  it("another tenant announcing a new client version resets no pending promotion and changes no fingerprint", async () => {
    const FLOW = "generate_report:jetbrains";
    await setCanary(mcp.db, RELEASER, FLOW, 100, "canary before promotion");
    // One call first, so the flow's fingerprint is the one this server computes.
    await callAs(await token(subject(), "jetbrains"), "generate_report", { name: "JetBrains AI Assistant", version: "253.28294" });
    const before = (await flow(FLOW))!;
    const a = await requestPromotion(mcp.db, RELEASER, FLOW, "ready for everyone");
    await decideApproval(mcp.db, APPROVER, { id: a.id, decision: "approve", reason: "looks good" });
    for (const [name, version, capabilities] of [
      ["JetBrains AI Assistant", "999.0.0-evil", { elicitation: { form: {}, url: {} } }],
      ["sectest-gov-2", "1", {}],
      ["x".repeat(300), "y".repeat(300), { elicitation: {} }],
    ] as const) {
      await callAs(await token(subject(), "jetbrains", "globex"), "generate_report", { name, version, capabilities });
    }
    const after = (await flow(FLOW))!;
    expect(after).toMatchObject({ fingerprint: before.fingerprint, retestRequired: before.retestRequired, stage: "canary" });
    expect(after.fingerprintInputs).toEqual(before.fingerprintInputs);
    expect(JSON.stringify(after.fingerprintInputs)).not.toMatch(/999\.0\.0|sectest|JetBrains AI/);
    expect((await mcp.db.select().from(approvals).where(eq(approvals.id, a.id)))[0]).toMatchObject({ state: "approved" });
    expect(await auditFor(FLOW, "flow.retest_required")).toEqual([]);
  });

  it("records what clients declared as observations, never as flow inputs", async () => {
    const inputs = (await flow("generate_report:visual-studio-code"))!.fingerprintInputs as Record<string, unknown>;
    expect(Object.keys(inputs).sort()).toEqual([
      "dataClassification",
      "downstream",
      "identityProvider",
      "profile",
      "protocolRevisions",
      "sdk",
      "serverVersion",
      "workflow",
    ]);
    expect(inputs).toMatchObject({ profile: "visual-studio-code", workflow: "generate_report", identityProvider: `${mcp.baseUrl}/oidc` });
  });
});

describe("the workflow:NAME kill switch", () => {
  it("blocks every client's flow of the workflow, revokes their unfinished URL handles, and leaves other workflows alone", async () => {
    const pending = async (flowId: string, tool: string) => {
      const draft = recordDraft({
        mode: "url",
        needKind: "grant",
        subject: subject(),
        clientName: "anything",
        protocolVersion: "2025-11-25",
        requestId: "1",
        toolName: tool,
        flowId,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const id = draft.id;
      await insertRecord(mcp.db, draft, "sent");
      return id;
    };
    const inScope = [
      await pending("list_repositories:claude-code", "list_repositories"),
      await pending("list_repositories:unregistered", "list_repositories"),
      await pending("list_repositories:ctl", "list_repositories"),
    ];
    const outOfScope = await pending("generate_report:ctl", "generate_report");
    const unfinishedUrl = async () =>
      (
        await mcp.db
          .select({ n: count() })
          .from(elicitationRecords)
          .innerJoin(flows, eq(flows.id, elicitationRecords.flowId))
          .where(
            and(
              eq(flows.workflow, "list_repositories"),
              eq(elicitationRecords.mode, "url"),
              inArray(elicitationRecords.state, ["created", "sent", "accepted", "opened"]),
            ),
          )
      )[0]!.n;
    // The console's confirmation step offers the scope and says how many handles it revokes.
    const impact = (await killSwitchImpact(mcp.db)).find((i) => i.scope === "workflow:list_repositories");
    expect(impact?.urlHandlesRevoked).toBe(await unfinishedUrl());
    expect(impact!.urlHandlesRevoked).toBeGreaterThanOrEqual(inScope.length);
    await engageKillSwitch(mcp.db, { type: "operator", id: OPERATOR }, { scope: "workflow:list_repositories", reason: "phishing report" });
    try {
      for (const id of inScope) expect(await getRecord(mcp.db, id)).toMatchObject({ state: "revoked" });
      expect(await unfinishedUrl()).toBe(0);
      expect(await getRecord(mcp.db, outOfScope)).toMatchObject({ state: "sent" });
      const revokedAudit = await mcp.db
        .select({ n: count() })
        .from(auditLog)
        .where(and(eq(auditLog.action, "record.revoked"), inArray(auditLog.targetId, [...inScope, outOfScope])));
      expect(revokedAudit[0]!.n).toBe(inScope.length);
      // Every client: mapped, the promoted ctl profile, unregistered; whatever it calls itself.
      for (const tok of [
        await token(subject(), "ctl"),
        await token(subject(), "visual-studio-code"),
        await issuerSignedToken(mcp.resource, { sub: subject(), client_id: "unknown-1" }),
      ]) {
        const r = await callAs(tok, "list_repositories", { name: "sectest-gov-3", capabilities: { elicitation: { form: {}, url: {} } } });
        expect(r.isError).toBe(true);
        expect(r.text).toContain("kill switch workflow:list_repositories is engaged");
        expect(r.asked).toBe(0);
      }
      expect((await callAs(await token(subject(), "ctl"), "generate_report")).structured).toMatchObject({ outcome: "completed" });
    } finally {
      await releaseKillSwitch(mcp.db, { type: "operator", id: OPERATOR }, { scope: "workflow:list_repositories", reason: "resolved" });
      await releaseKillSwitch(mcp.db, { type: "operator", id: ADMIN }, { scope: "workflow:list_repositories", reason: "resolved" });
    }
  });

  it("refuses scopes that name no workflow or flow, and changes nothing", async () => {
    const before = await mcp.db.select({ n: count() }).from(sql`kill_switches`);
    for (const scope of [
      "workflow:",
      "workflow:__proto__",
      "workflow:List_Repositories",
      `workflow:${"a".repeat(64)}`,
      "flow:generate_report",
      `flow:generate_report:${"x".repeat(300)}`,
      "flow:generate_report:Visual Studio Code",
      "workflow:list_repositories ",
    ]) {
      await expect(engageKillSwitch(mcp.db, { type: "operator", id: OPERATOR }, { scope, reason: "bad scope" })).rejects.toThrow(
        /scope must be/,
      );
    }
    expect(await mcp.db.select({ n: count() }).from(sql`kill_switches`)).toEqual(before);
  });
});
