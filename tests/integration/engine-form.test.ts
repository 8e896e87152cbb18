// The engine end to end with the SDK's real client over real Streamable HTTP: capability
// manifests, answers, cool-down, policy and the approval gate.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { approvals, elicitationRecords } from "@/db/schema";
import { ApprovalError, decideApproval } from "@/lib/approvals/decide";
import { recordEvents } from "@/lib/elicitation/records";
import { engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";

const mcp = useMcpApp({ records: 20 });
let n = 0;

/** A fresh subject per case, so cool-downs and approvals never leak between cases. */
async function freshUser(tenant = "acme") {
  const subject = `user-test-${++n}-${Date.now()}`;
  const token = await mcp.token({ subject, tenant });
  return { subject, token };
}

const VALID = { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" };
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));

describe("capability manifests", () => {
  it.each([
    ["form only", { elicitation: { form: {} } }, true],
    ["form and URL", { elicitation: { form: {}, url: {} } }, true],
    ["empty elicitation {} (form, for backwards compatibility)", { elicitation: {} }, true],
    ["URL only", { elicitation: { url: {} } }, false],
    ["no elicitation", {}, false],
  ])("%s", async (_name, capabilities, formSent) => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, { capabilities, answer: () => ({ action: "accept", content: VALID }) });
    const r = await c.call("generate_report");
    const [record] = await records(subject);
    if (formSent) {
      expect(c.received).toHaveLength(1);
      // Form mode, declared: an omitted mode would mean form as well.
      expect(c.received[0]!.mode ?? "form").toBe("form");
      expect(r.structured).toMatchObject({ outcome: "completed", report: { environment: "production", region: "eu-west-1" } });
      expect(record).toMatchObject({ state: "completed", routeDecision: "form" });
    } else {
      expect(c.received).toHaveLength(0);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/client declared no form mode/);
      expect(record).toMatchObject({ state: "not_sent", routeDecision: "fallback", routeReason: "client declared no form mode" });
    }
    await c.close();
  });
});

describe("answers", () => {
  it("completes with valid content, ties the elicitation to its tools/call, and stores no value", async () => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: { ...VALID, title: "Quarterly" } }),
    });
    const r = await c.call("generate_report");
    expect(r.text).toMatch(/^Report rpt_[0-9a-f]{12} generated for acme \(eu-west-1\), production, csv, 2026-10-01 to 2026-10-31\.$/);
    const [record] = await records(subject);
    expect(record).toMatchObject({
      requestMethod: "tools/call",
      requestId: String(c.toolCallIds[0]),
      toolName: "generate_report",
      sessionId: c.transport.sessionId,
      clientName: "test-client",
      protocolVersion: "2025-11-25",
    });
    expect(record!.fieldNames).toEqual(["environment", "format", "from", "to", "title"]);
    expect(record!.schemaHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record!.respondedAt).toBeInstanceOf(Date);
    expect((await recordEvents(mcp.db, record!.id)).map((e) => e.toState)).toEqual(["created", "sent", "accepted", "completed"]);
    await c.close();
  });

  it.each([
    ["a value outside the schema", { ...VALID, environment: "qa" }, [{ field: "environment", keyword: "enum" }]],
    ["a missing required field", { format: "pdf" }, [{ field: "environment", keyword: "required" }]],
    [
      "a field the form did not ask for",
      { ...VALID, extra_secret_field: "x" },
      [{ field: "(unexpected)", keyword: "additionalProperties" }],
    ],
    ["a range in the wrong order (domain rule)", { ...VALID, from: "2026-10-31", to: "2026-10-01" }, [{ field: "to", keyword: "order" }]],
    [
      "a credential pasted into a harmless field",
      { ...VALID, title: "ghp_R7fK2mQ9xL4vT8nW1pZ6cY3bH5jD0sGtEu9a" },
      [{ field: "title", keyword: "credential_like:known_token" }],
    ],
    [
      "a card number pasted into a harmless field",
      { ...VALID, title: "4111 1111 1111 1111" },
      [{ field: "title", keyword: "credential_like:card_number" }],
    ],
  ])("rejects %s and records it by field and keyword", async (_name, content, errors) => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content }),
    });
    const r = await c.call("generate_report");
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ outcome: "invalid", errors });
    const [record] = await records(subject);
    expect(record).toMatchObject({ state: "validation_failed", validationErrors: errors });
    await c.close();
  });

  it("ends on decline with no hidden default, and does not prompt again within the cool-down", async () => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "decline" }),
    });
    expect((await c.call("generate_report")).text).toBe("You declined. Nothing was done.");
    const again = await c.call("generate_report");
    expect(again.structured).toMatchObject({ outcome: "repeat_prevented", previous: "declined" });
    expect(c.received).toHaveLength(1);
    const rows = await records(subject);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "declined", preventedRepeats: 1 });
    await c.close();
  });

  it("records cancel as cancelled (not a refusal) and says the user may retry", async () => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "cancel" }),
    });
    const r = await c.call("generate_report");
    expect(r.text).toMatch(
      /cancelled.*You will not be asked again for 5 minutes. To go ahead sooner, call generate_report again with the arguments/,
    );
    expect(r.isError).toBe(false);
    expect((await records(subject))[0]).toMatchObject({ state: "cancelled" });
    await c.close();
  });
});

describe("policy", () => {
  it("blocks new form elicitation while a kill switch is engaged and says why; release restores it", async () => {
    const { subject, token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: VALID }),
    });
    await engageKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: "incident 42" });
    const blocked = await c.call("generate_report");
    expect(blocked.text).toMatch(/kill switch mode:form is engaged \(stopped by an operator\)/);
    expect(blocked.text).not.toContain("incident 42");
    expect(c.received).toHaveLength(0);
    await releaseKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:form", reason: "resolved" });
    await releaseKillSwitch(mcp.db, { type: "operator", id: "op-admin-0001" }, { scope: "mode:form", reason: "resolved" });
    expect((await c.call("generate_report")).structured).toMatchObject({ outcome: "completed" });
    expect((await records(subject)).map((r) => r.state).sort()).toEqual(["completed", "not_sent"]);
    await c.close();
  });
});

describe("approval gate (purge_report_cache)", () => {
  it("never asks in a form; proceeds only after a different person approves, once", async () => {
    const { token } = await freshUser();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {}, url: {} } },
      answer: () => ({ action: "accept", content: { approve: true } }),
    });
    const first = await c.call("purge_report_cache");
    expect(first.structured).toMatchObject({ outcome: "approval_pending" });
    const id = first.structured.approval as string;
    expect((await c.call("purge_report_cache")).text).toMatch(/^Still waiting for approval/);
    expect(c.received).toHaveLength(0);

    await expect(decideApproval(mcp.db, "op-viewer-0006", { id, decision: "approve", reason: "looks fine" })).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      decideApproval(mcp.db, "op-approver-0004", { id, decision: "approve", reason: "approved for the test" }),
    ).resolves.toMatchObject({ state: "approved", decidedBy: "op-approver-0004" });
    expect((await c.call("purge_report_cache")).structured).toMatchObject({ outcome: "completed", approval: id });
    // The approval authorised one run: the next purge needs a new one.
    expect((await c.call("purge_report_cache")).structured).toMatchObject({ outcome: "approval_pending" });
    const [row] = await mcp.db.select().from(approvals).where(eq(approvals.id, id));
    expect(row!.state).toBe("consumed");
    await c.close();
  });

  it("refuses self-approval", async () => {
    await mcp.db.insert(approvals).values({
      id: "apr_00000000000000aa",
      kind: "workflow_action",
      action: "purge_report_cache",
      requestedBy: "op-approver-0004",
      requestedByType: "operator",
      reason: "x",
    });
    await expect(
      decideApproval(mcp.db, "op-approver-0004", { id: "apr_00000000000000aa", decision: "approve", reason: "mine" }),
    ).rejects.toBeInstanceOf(ApprovalError);
  });
});

describe("describe_capabilities", () => {
  it("reports the negotiated modes and how each need routes, asking nothing", async () => {
    const { token } = await freshUser("globex");
    const c = await connectClient(mcp.resource, token, { capabilities: { elicitation: { url: {} } } });
    const r = await c.call("describe_capabilities");
    expect(r.structured).toMatchObject({ tenant: "globex", modes: { form: false, url: true }, declaredElicitation: { url: {} } });
    const wf = r.structured.workflows as Array<{ name: string; needs: Array<{ key: string; route: string }> }>;
    expect(wf.find((w) => w.name === "generate_report")!.needs).toEqual([
      expect.objectContaining({ key: "region", route: "read" }),
      expect.objectContaining({ key: "report_parameters", route: "fallback" }),
    ]);
    expect(wf.find((w) => w.name === "purge_report_cache")!.needs).toEqual([expect.objectContaining({ route: "approval_gate" })]);
    expect(c.received).toHaveLength(0);
    await c.close();
  });
});

describe("waiting for a person", () => {
  it("times out after the configured time and records timed_out", async () => {
    const { subject, token } = await freshUser();
    process.env.ELICITATION_TIMEOUT_SECONDS = "0.3";
    try {
      const c = await connectClient(mcp.resource, token, {
        capabilities: { elicitation: { form: {} } },
        answer: () => new Promise((resolve) => setTimeout(() => resolve({ action: "accept", content: VALID }), 1500)),
      });
      const r = await c.call("generate_report");
      expect(r.structured).toMatchObject({ outcome: "timed_out" });
      expect((await records(subject))[0]).toMatchObject({ state: "timed_out" });
      await c.close();
    } finally {
      delete process.env.ELICITATION_TIMEOUT_SECONDS;
    }
  });

  it("records cancelled when the client cancels the originating tools/call", async () => {
    const { subject, token } = await freshUser();
    const abort = new AbortController();
    const c = await connectClient(mcp.resource, token, {
      capabilities: { elicitation: { form: {} } },
      answer: () => {
        abort.abort();
        return new Promise(() => {});
      },
    });
    await expect(c.client.callTool({ name: "generate_report", arguments: {} }, undefined, { signal: abort.signal })).rejects.toThrow();
    await expect.poll(async () => (await records(subject))[0]?.state, { timeout: 5000 }).toBe("cancelled");
    await c.close();
  });

  it("refuses a client that cannot take a streamed response (JSON-only), since elicitation needs the stream", async () => {
    const { token } = await freshUser();
    const init = await fetch(mcp.resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "json-only", version: "1" } },
      }),
    });
    expect(init.status).toBe(406);
  });
});
