// Clients without the mode a tool needs get a way through, in plain words: generate_report takes
// its form fields as optional arguments, checked by the same schema, linter, credential scan and
// domain rules as a form; a pending connect record is offered as an openable link to a client
// without URL mode; and the result texts agree with the cool-down. In both eras.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { engageKillSwitch, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { useMcpApp } from "../helpers/mcp-app";
import { forgetConnection } from "../helpers/url-mode-reset";
import { connectClient } from "../helpers/mcp-client";
import { connectV2Client } from "../helpers/mcp-client-v2";
import { callTool } from "../helpers/mcp-modern-raw";

const mcp = useMcpApp({ records: 5, appUrl: "server" });
let n = 0;

async function user(tenant = "acme", subject = `user-args-${++n}-${Date.now()}`) {
  return { subject, token: await mcp.token({ subject, tenant }) };
}
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));

type Kind = "v1" | "v2-pinned";
async function client(
  kind: Kind,
  token: string,
  capabilities: Record<string, unknown>,
  answer?: () => { action: "accept" | "decline" | "cancel" },
) {
  return kind === "v1"
    ? connectClient(mcp.resource, token, { capabilities, answer })
    : connectV2Client(mcp.resource, token, { mode: "pin", capabilities, answer });
}

const HINT =
  "call generate_report again with the arguments environment (staging or production), format (pdf or csv); optionally from (YYYY-MM-DD), to (YYYY-MM-DD), title";

describe.each(["v1", "v2-pinned"] as const)("form fields as arguments, %s client", (kind) => {
  it("a client with no form mode can pass the fields as arguments: report generated, nothing asked, no elicitation record", async () => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const r = await c.call("generate_report", { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" });
    expect(r.structured).toMatchObject({
      outcome: "completed",
      record: null,
      report: { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31", region: "eu-west-1" },
    });
    expect(await records(u.subject)).toHaveLength(0);
    await c.close();
  });

  it.each([
    [
      "a domain rule (to before from)",
      { environment: "staging", format: "pdf", from: "2026-10-31", to: "2026-10-01" },
      { field: "to", keyword: "order" },
    ],
    [
      "a credential shape in the title",
      { environment: "staging", format: "pdf", title: "ghp_8fK2mQ9xL4vR7tZ1wN6pB3sD5hJ0yC2eA9uX" },
      { field: "title" },
    ],
    ["a required field missing", { environment: "staging" }, { field: "format", keyword: "required" }],
  ])("refuses %s exactly as a form answer would be refused, and generates nothing", async (_name, args, issue) => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const r = await c.call("generate_report", args);
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ outcome: "invalid_arguments", errors: expect.arrayContaining([expect.objectContaining(issue)]) });
    expect(r.text).toMatch(/^The arguments were not accepted \(.*\)\. Nothing was done/);
    expect(r.text).not.toMatch(/ghp_|hunter2/);
    expect(r.structured.report).toBeUndefined();
    await c.close();
  });

  it("an unknown argument is refused by the closed input schema before anything runs (tests/integration/mcp-red-team.test.ts covers every tool)", async () => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const r = await c.call("generate_report", { environment: "staging", format: "pdf", password: "hunter2" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Input validation error: Invalid arguments for tool generate_report/);
    expect(r.text).not.toContain("hunter2");
    expect(r.structured.report).toBeUndefined();
    expect(await records(u.subject)).toHaveLength(0);
    await c.close();
  });

  it("a value outside the listed enum is refused before anything runs", async () => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const r = await c
      .call("generate_report", { environment: "moon", format: "csv" })
      .catch((err: unknown) => ({ isError: true, text: String(err), structured: {} as Record<string, unknown> }));
    expect(r.isError).toBe(true);
    expect(r.structured.report).toBeUndefined();
    expect(await records(u.subject)).toHaveLength(0);
    await c.close();
  });

  it("without arguments, a client with no form mode is told in plain words what to do", async () => {
    const u = await user();
    const c = await client(kind, u.token, kind === "v1" ? {} : { elicitation: { form: {} } });
    if (kind === "v2-pinned") {
      // A pinned client with form mode is asked the form; the no-form case is -32021 in this era
      // (tests/integration/mcp-modern-protocol.test.ts). Here: the v1 client's plain words only.
      await c.close();
      return;
    }
    const r = await c.call("generate_report");
    expect(r.text).toBe(`Not asked: your client cannot show forms (client declared no form mode). Nothing was done. To go ahead, ${HINT}.`);
    expect(await records(u.subject)).toMatchObject([{ state: "not_sent", routeDecision: "fallback" }]);
    await c.close();
  });

  it("the cool-down and the texts agree: after a cancel, no immediate re-ask is promised; the arguments go ahead at once", async () => {
    const u = await user();
    const c = await client(kind, u.token, { elicitation: { form: {} } }, () => ({ action: "cancel" }));
    const first = await c.call("generate_report");
    expect(first.text).toBe(
      `The request was cancelled. Nothing was done. You will not be asked again for 5 minutes. To go ahead sooner, ${HINT}.`,
    );
    const again = await c.call("generate_report");
    expect(again.structured).toMatchObject({ outcome: "repeat_prevented" });
    expect(again.text).toContain(`To go ahead sooner, ${HINT}.`);
    const viaArgs = await c.call("generate_report", { environment: "staging", format: "pdf" });
    expect(viaArgs.structured).toMatchObject({ outcome: "completed" });
    expect(await records(u.subject)).toMatchObject([{ state: "cancelled", preventedRepeats: 1 }]);
    await c.close();
  });

  it("policy governs arguments too: the global kill switch blocks them; the mode:form switch (forms only) does not", async () => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const op = { type: "operator" as const, id: "op-operator-0002" };
    const args = { environment: "staging", format: "pdf" };
    await engageKillSwitch(mcp.db, op, { scope: "global", reason: "args drill" });
    try {
      const r = await c.call("generate_report", args);
      expect(r).toMatchObject({ isError: true, structured: { outcome: "blocked" } });
      expect(r.text).toMatch(/kill switch global is engaged \(stopped by an operator\)/);
      expect(r.text).not.toContain("args drill");
    } finally {
      await releaseKillSwitch(mcp.db, op, { scope: "global", reason: "done" });
      await releaseKillSwitch(mcp.db, { type: "operator", id: "op-admin-0001" }, { scope: "global", reason: "done" });
    }
    await engageKillSwitch(mcp.db, op, { scope: "mode:form", reason: "forms only" });
    try {
      expect((await c.call("generate_report", args)).structured).toMatchObject({ outcome: "completed" });
    } finally {
      await releaseKillSwitch(mcp.db, op, { scope: "mode:form", reason: "done" });
      await releaseKillSwitch(mcp.db, { type: "operator", id: "op-admin-0001" }, { scope: "mode:form", reason: "done" });
    }
    await c.close();
  });

  it("lists the form fields as optional arguments", async () => {
    const u = await user();
    const c = await client(kind, u.token, {});
    const tools = (await c.client.listTools()).tools;
    const report = tools.find((x) => x.name === "generate_report")!;
    expect(Object.keys(report.inputSchema.properties ?? {}).sort()).toEqual(["environment", "format", "from", "title", "to"]);
    expect(report.inputSchema.required ?? []).toEqual([]);
    await c.close();
  });
});

describe("prototype keys in arguments (2026-07-28, hand-built)", () => {
  it("__proto__ and constructor never reach a report and pollute nothing", async () => {
    const u = await user();
    for (const key of ["__proto__", "constructor"]) {
      const args = JSON.parse(`{"environment":"staging","format":"pdf","${key}":{"polluted":true}}`) as Record<string, unknown>;
      const r = await callTool(mcp.resource, u.token, "generate_report", { args, capabilities: {} });
      // Refused as an unknown argument by the closed input schema, or dropped before the tool runs; never used, never polluting.
      if (r.result?.isError !== true)
        expect(r.result).toMatchObject({ structuredContent: { report: { environment: "staging", format: "pdf", title: null } } });
      else expect(JSON.stringify(r.result!.content)).toMatch(/Input validation error: Invalid arguments for tool generate_report/);
      expect(JSON.stringify(r.result)).not.toContain("polluted");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
    }
  });
});

describe("a pending connect record and a client without URL mode", () => {
  it("gets the same record's link to open, in plain words; no new record", async () => {
    const alice = { subject: "user-alice-1001", tenant: "acme" };
    await forgetConnection(mcp.db, alice.subject);
    const u = await user(alice.tenant, alice.subject);
    const withUrl = await connectClient(mcp.resource, u.token, {
      capabilities: { elicitation: { url: {} } },
      answer: () => ({ action: "accept" }),
    });
    const first = await withUrl.call("list_repositories");
    const id = String(first.structured.elicitationId);
    const before = (await records(alice.subject)).length;
    for (const kind of ["v1", "v2-pinned"] as const) {
      const noUrl = await client(kind, u.token, { elicitation: { form: {} } });
      const r = await noUrl.call("list_repositories");
      expect(r.structured).toMatchObject({ outcome: "connect_pending", elicitationId: id, connectUrl: `${mcp.baseUrl}/connect/${id}` });
      expect(r.text).toBe(
        `Open ${mcp.baseUrl}/connect/${id} in your browser to connect Demo Git (you sign in there, not here), then call list_repositories again. Nothing was done yet.`,
      );
      await noUrl.close();
    }
    expect((await records(alice.subject)).length).toBe(before);
    await withUrl.close();
  });
});
