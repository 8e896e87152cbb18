// The bounded identifiers and the new-flow setting: profile ids, flow ids, kill switch scopes and
// FLOW_NEW_STAGE refuse anything outside their shape, with a message naming what is wrong.
import { describe, expect, it } from "vitest";
import { FLOW_ID_PATTERN, flowActionInput } from "@/lib/policy/flow-actions";
import { killSwitchScope } from "@/lib/policy/kill-switch";
import { newFlowStage } from "@/lib/policy/new-flow-stage";
import { setClientProfileInput } from "@/lib/policy/client-profiles";
import { flowIdFor, profileIdSchema } from "@/lib/policy/profile-id";
import { clientIdClaimsFromEnv } from "@/lib/auth/mcp-bearer";
import { servedWorkflows } from "@/lib/workflows/registry";

describe("FLOW_NEW_STAGE", () => {
  it("is off when unset, empty or off", () => {
    for (const v of [undefined, "", "off"]) expect(newFlowStage({ FLOW_NEW_STAGE: v })).toEqual({ stage: "off", canaryPercent: 0 });
  });
  it.each([
    ["canary:0", 0],
    ["canary:1", 1],
    ["canary:20", 20],
    ["canary:100", 100],
  ])("reads %s", (v, pct) => {
    expect(newFlowStage({ FLOW_NEW_STAGE: v })).toEqual({ stage: "canary", canaryPercent: pct });
  });
  it.each([
    "canary:100%",
    "abc",
    "canary",
    "canary:",
    "canary:101",
    "canary:-1",
    "canary:1e2",
    "canary:05",
    "canary: 5",
    "CANARY:5",
    "canary:5.5",
    "promoted",
    "on",
    "canary:0x10",
    "__proto__",
    "canary:5\n",
  ])("refuses %j, naming the variable", (v) => {
    expect(() => newFlowStage({ FLOW_NEW_STAGE: v })).toThrow(/FLOW_NEW_STAGE must be "off" or "canary:N"/);
  });
  it("refuses the retired FLOW_DEFAULT_CANARY_PERCENT instead of silently ignoring it", () => {
    expect(() => newFlowStage({ FLOW_DEFAULT_CANARY_PERCENT: "100" })).toThrow(
      /FLOW_DEFAULT_CANARY_PERCENT is no longer read: set FLOW_NEW_STAGE/,
    );
  });
});

describe("profile ids", () => {
  it.each(["claude-code", "a", "0", "visual-studio-code", "x".repeat(63)])("accepts %s", (id) => {
    expect(profileIdSchema.parse(id)).toBe(id);
  });
  it.each([
    "",
    "Claude-Code",
    "-leading",
    "has space",
    "x".repeat(64),
    "__proto__",
    "constructor\u200b",
    "ünicode",
    "a_b",
    "a.b",
    "a:b",
    "a/b",
  ])("refuses %j", (id) => {
    expect(profileIdSchema.safeParse(id).success).toBe(false);
  });
  it("cannot assign the shared unregistered profile, nor a display name with control characters", () => {
    expect(setClientProfileInput.safeParse({ clientId: "c", profileId: "unregistered", displayName: "x" }).success).toBe(false);
    expect(setClientProfileInput.safeParse({ clientId: "c", profileId: "p", displayName: "a\u202eb" }).success).toBe(false);
    expect(setClientProfileInput.safeParse({ clientId: "has space", profileId: "p", displayName: "x" }).success).toBe(false);
    expect(setClientProfileInput.safeParse({ clientId: "c".repeat(201), profileId: "p", displayName: "x" }).success).toBe(false);
    expect(setClientProfileInput.parse({ clientId: "b4c1f7f6-0e4e", profileId: "p", displayName: " P " })).toEqual({
      clientId: "b4c1f7f6-0e4e",
      profileId: "p",
      displayName: "P",
    });
  });
});

describe("flow ids and kill switch scopes", () => {
  it("every served workflow (conformance fixtures included) has a name a flow id and a workflow: scope accept", () => {
    for (const wf of servedWorkflows({ MCP_CONFORMANCE_FIXTURES: "true" })) {
      expect(FLOW_ID_PATTERN.test(flowIdFor(wf.name, "unregistered"))).toBe(true);
      expect(killSwitchScope.parse(`workflow:${wf.name}`)).toBe(`workflow:${wf.name}`);
    }
  });
  it("every flow id fits the flow: scope, however long its parts", () => {
    const id = flowIdFor("w".repeat(63), "p".repeat(63));
    expect(FLOW_ID_PATTERN.test(id)).toBe(true);
    expect(killSwitchScope.parse(`flow:${id}`)).toBe(`flow:${id}`);
    expect(() => flowIdFor("generate_report", "Visual Studio Code")).toThrow();
  });
  it.each(["global", "mode:form", "mode:url", "flow:generate_report:claude-code", "workflow:list_repositories"])(
    "accepts scope %s",
    (s) => {
      expect(killSwitchScope.parse(s)).toBe(s);
    },
  );
  it.each([
    "",
    "mode:sms",
    "flow:",
    "flow:generate_report",
    "flow:generate_report:Claude Code",
    "workflow:",
    "workflow:__proto__",
    "workflow:a:b",
    "workflows:x",
    " global",
  ])("refuses scope %j", (s) => {
    expect(killSwitchScope.safeParse(s).success).toBe(false);
  });
  it("the console's flow action refuses odd flow ids and canary shares", () => {
    expect(flowActionInput.safeParse({ flowId: "x".repeat(300), op: "rollback" }).success).toBe(false);
    expect(flowActionInput.safeParse({ flowId: "__proto__", op: "rollback" }).success).toBe(false);
    for (const pct of ["100%", "abc", "101", "-1", "1e2", "5.5"])
      expect(flowActionInput.safeParse({ flowId: "generate_report:ctl", op: "canary", canaryPercent: pct }).success).toBe(false);
    expect(flowActionInput.parse({ flowId: "generate_report:ctl", op: "canary", canaryPercent: "20" })).toMatchObject({
      canaryPercent: 20,
    });
  });
});

describe("MCP_CLIENT_ID_CLAIM", () => {
  it("defaults to client_id then azp, takes one claim name, and refuses anything else", () => {
    expect(clientIdClaimsFromEnv({})).toEqual(["client_id", "azp"]);
    expect(clientIdClaimsFromEnv({ MCP_CLIENT_ID_CLAIM: "cid" })).toEqual(["cid"]);
    for (const v of ["two claims", "a,b", "", "x".repeat(101)])
      if (v) expect(() => clientIdClaimsFromEnv({ MCP_CLIENT_ID_CLAIM: v })).toThrow(/MCP_CLIENT_ID_CLAIM/);
  });
});
