// Both protocol eras on /api/mcp with real clients over real HTTP: the official v2 client pinned to
// 2026-07-28, in automatic negotiation and in legacy mode, and the v1 client. Each accepts,
// declines, cancels and answers invalidly, for a form (generate_report) and for URL mode
// (list_repositories, with the browser part done over HTTP as a person would). One engine serves
// them all: the records, outcomes and texts are the same; only protocol_version differs.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { completeCallback, continueConnect } from "@/lib/connect/flow";
import { getRecord } from "@/lib/elicitation/records";
import { clientCompatibility } from "@/lib/metrics/clients";
import { useMcpApp } from "../helpers/mcp-app";
import { forgetConnection, grantCount } from "../helpers/url-mode-reset";
import { connectClient } from "../helpers/mcp-client";
import { connectV2Client } from "../helpers/mcp-client-v2";
import { loginAtProvider } from "../helpers/provider-login";

const mcp = useMcpApp({ records: 10, appUrl: "server" });
let n = 0;

type ClientKind = "v2-pinned" | "v2-auto" | "v2-legacy" | "v1";
const KINDS: Array<[ClientKind, string]> = [
  ["v2-pinned", "2026-07-28"],
  ["v2-auto", "2026-07-28"],
  ["v2-legacy", "2025-11-25"],
  ["v1", "2025-11-25"],
];

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };
type Params = Record<string, unknown>;

interface AnyClient {
  received: Params[];
  call(name: string): Promise<{ text: string; structured: Record<string, unknown>; isError: boolean }>;
  close(): Promise<void>;
}

async function connect(
  kind: ClientKind,
  token: string,
  capabilities: Record<string, unknown>,
  answer: (p: Params) => Answer | Promise<Answer>,
): Promise<AnyClient> {
  const name = `${kind}-client-${++n}`;
  if (kind === "v1") return connectClient(mcp.resource, token, { name, capabilities, answer: (p) => answer(p as Params) });
  const mode = kind === "v2-pinned" ? "pin" : kind === "v2-auto" ? "auto" : "legacy";
  return connectV2Client(mcp.resource, token, { mode, name, capabilities, answer: (p) => answer(p as Params) });
}

async function freshUser(tenant = "acme") {
  const subject = `user-eras-${++n}-${Date.now()}`;
  const token = await mcp.token({ subject, tenant });
  return { subject, token };
}

const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));
const VALID = { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" };

describe.each(KINDS)("form mode, %s client", (kind, protocolVersion) => {
  it("accept: the report is generated and the record completes, carried by its revision", async () => {
    const u = await freshUser();
    const c = await connect(kind, u.token, { elicitation: { form: {} } }, () => ({ action: "accept", content: VALID }));
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "completed", report: { environment: "production", format: "csv", region: "eu-west-1" } });
    expect(c.received).toHaveLength(1);
    expect(c.received[0]).toMatchObject({
      message: expect.stringContaining("Choose the report"),
      requestedSchema: { required: ["environment", "format"] },
    });
    const rows = await records(u.subject);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "completed", protocolVersion, routeDecision: "form", mode: "form" });
    // The modern era is stateless: no session.
    if (protocolVersion === "2026-07-28") expect(rows[0]!.sessionId).toBeNull();
    else expect(rows[0]!.sessionId).not.toBeNull();
    await c.close();
  });

  it("decline: told so plainly, nothing done, record declined", async () => {
    const u = await freshUser();
    const c = await connect(kind, u.token, { elicitation: { form: {} } }, () => ({ action: "decline" }));
    const r = await c.call("generate_report");
    expect(r.text).toBe("You declined. Nothing was done.");
    expect(r.structured).toMatchObject({ outcome: "declined" });
    expect(await records(u.subject)).toMatchObject([{ state: "declined", protocolVersion }]);
    await c.close();
  });

  it("cancel: told it was cancelled, record cancelled; the cool-down then answers without asking", async () => {
    const u = await freshUser();
    const c = await connect(kind, u.token, { elicitation: { form: {} } }, () => ({ action: "cancel" }));
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "cancelled" });
    expect(r.text).toContain("cancelled");
    const again = await c.call("generate_report");
    expect(again.structured).toMatchObject({ outcome: "repeat_prevented", previous: "cancelled" });
    expect(c.received).toHaveLength(1);
    const rows = await records(u.subject);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "cancelled", protocolVersion, preventedRepeats: 1 });
    await c.close();
  });

  it("an invalid answer is refused by the server's own validation, recorded by field and keyword only", async () => {
    const u = await freshUser();
    const c = await connect(kind, u.token, { elicitation: { form: {} } }, () => ({
      action: "accept",
      content: { environment: "production", format: "docx" },
    }));
    const r = await c.call("generate_report");
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ outcome: "invalid" });
    const [row] = await records(u.subject);
    expect(row).toMatchObject({ state: "validation_failed", protocolVersion });
    expect(JSON.stringify(row!.validationErrors)).toContain("format");
    expect(JSON.stringify(row)).not.toContain("docx");
    await c.close();
  });

  it("a domain rule refuses an answer the schema allows (to before from)", async () => {
    const u = await freshUser();
    const c = await connect(kind, u.token, { elicitation: { form: {} } }, () => ({
      action: "accept",
      content: { environment: "staging", format: "pdf", from: "2026-10-31", to: "2026-10-01" },
    }));
    const r = await c.call("generate_report");
    expect(r.structured).toMatchObject({ outcome: "invalid", errors: [{ field: "to", keyword: "order" }] });
    expect(await records(u.subject)).toMatchObject([{ state: "validation_failed", protocolVersion }]);
    await c.close();
  });
});

// URL mode: the demo provider knows alice; each case starts with her connection removed.
const ALICE = { subject: "user-alice-1001", tenant: "acme" };
const resetAlice = () => forgetConnection(mcp.db, ALICE.subject);
const grants = () => grantCount(mcp.db, ALICE.subject);

/** What the person does in the browser: the connect page's Continue, the provider's sign-in, the callback. */
async function browserConnect(connectUrl: string) {
  const id = new URL(connectUrl).pathname.split("/").at(-1)!;
  const browser = { sub: ALICE.subject, tenant: ALICE.tenant };
  const go = await continueConnect(mcp.db, id, browser);
  if (!go.ok) throw new Error(go.problem);
  const callback = await loginAtProvider(go.location, "alice", `${mcp.baseUrl}/connect/callback`);
  const done = await completeCallback(mcp.db, callback.searchParams, browser);
  if (!done.ok) throw new Error(done.problem);
  return id;
}

describe.each(KINDS)("URL mode, %s client", (kind, protocolVersion) => {
  it("receives a URL request for this app's connect page; after the browser flow the call completes with one grant", async () => {
    await resetAlice();
    const token = await mcp.token(ALICE);
    let recordId = "";
    const c = await connect(kind, token, { elicitation: { form: {}, url: {} } }, async (p) => {
      recordId = await browserConnect(String(p.url));
      return { action: "accept" };
    });
    const r = await c.call("list_repositories");
    expect(r.structured).toMatchObject({ outcome: "completed", repositories: ["acme/reports", "acme/infrastructure", "acme/website"] });
    expect(c.received).toHaveLength(1);
    expect(c.received[0]).toMatchObject({ mode: "url", url: `${mcp.baseUrl}/connect/${recordId}` });
    // 2026-07-28 has no elicitationId on the wire; the record id travels in the sealed state.
    if (protocolVersion === "2026-07-28") expect(c.received[0]!.elicitationId).toBeUndefined();
    else expect(c.received[0]!.elicitationId).toBe(recordId);
    expect(await getRecord(mcp.db, recordId)).toMatchObject({ state: "completed", protocolVersion, mode: "url" });
    expect(await grants()).toBe(1);
    // Called again: the grant is used at once, nothing asked, nothing created.
    const again = await c.call("list_repositories");
    expect(again.structured).toMatchObject({ outcome: "completed" });
    expect(c.received).toHaveLength(1);
    expect(await grants()).toBe(1);
    await c.close();
  });

  it.each(["decline", "cancel"] as const)("%s: told so, no grant, record ended", async (action) => {
    await resetAlice();
    const token = await mcp.token(ALICE);
    const c = await connect(kind, token, { elicitation: { form: {}, url: {} } }, () => ({ action }));
    const r = await c.call("list_repositories");
    const state = action === "decline" ? "declined" : "cancelled";
    expect(r.structured).toMatchObject({ outcome: state });
    const id = String(r.structured.record);
    expect(await getRecord(mcp.db, id)).toMatchObject({ state, protocolVersion });
    expect(await grants()).toBe(0);
    await c.close();
  });

  it("an invalid URL-mode answer (accept with content): the content is dropped and counted, never stored, and grants nothing", async () => {
    await resetAlice();
    const canary = `canary-url-content-${++n}`;
    const token = await mcp.token(ALICE);
    const c = await connect(kind, token, { elicitation: { form: {}, url: {} } }, () => ({ action: "accept", content: { token: canary } }));
    const outcome = (await c.call("list_repositories")).structured;
    const rows = await mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, ALICE.subject));
    expect(JSON.stringify(rows)).not.toContain(canary);
    expect(outcome).toMatchObject({ outcome: "connect_pending" });
    expect(await getRecord(mcp.db, String(outcome.elicitationId))).toMatchObject({
      state: "accepted",
      protocolVersion,
      droppedContentCount: 1,
    });
    expect(await grants()).toBe(0);
    await c.close();
  });

  it("accept without finishing in the browser: the call says the connection is pending, and a retry offers the same record", async () => {
    await resetAlice();
    const token = await mcp.token(ALICE);
    const c = await connect(kind, token, { elicitation: { form: {}, url: {} } }, () => ({ action: "accept" }));
    const first = await c.call("list_repositories");
    expect(first.structured).toMatchObject({ outcome: "connect_pending" });
    const id = String(first.structured.elicitationId);
    expect(await getRecord(mcp.db, id)).toMatchObject({ state: "accepted", protocolVersion });
    const retry = await c.call("list_repositories");
    expect(retry.structured).toMatchObject({ outcome: "connect_pending", elicitationId: id, reused: true });
    const urls = c.received.map((p) => String(p.url));
    expect(urls).toEqual([`${mcp.baseUrl}/connect/${id}`, `${mcp.baseUrl}/connect/${id}`]);
    const live = await mcp.db
      .select()
      .from(elicitationRecords)
      .where(and(eq(elicitationRecords.subject, ALICE.subject), eq(elicitationRecords.state, "accepted")));
    expect(live).toHaveLength(1);
    await c.close();
  });
});

describe("the console's clients view knows both eras", () => {
  it("lists a 2026-07-28-only client (no session) and a 2025-11-25 client, each with the revision it spoke", async () => {
    const u = await freshUser();
    const answer = () => ({ action: "accept" as const, content: VALID });
    const modern = await connectV2Client(mcp.resource, u.token, {
      mode: "pin",
      name: "era-view-modern",
      capabilities: { elicitation: { form: {} } },
      answer,
    });
    const legacy = await connectClient(mcp.resource, u.token, {
      name: "era-view-legacy",
      capabilities: { elicitation: { form: {} } },
      answer,
    });
    await modern.call("generate_report");
    await legacy.call("generate_report");
    const rows = await clientCompatibility(mcp.db);
    expect(rows.find((r) => r.name === "era-view-modern")).toMatchObject({
      sessions: 0,
      records: 1,
      completed: 1,
      revisions: ["2026-07-28"],
    });
    expect(rows.find((r) => r.name === "era-view-legacy")).toMatchObject({
      sessions: 1,
      records: 1,
      completed: 1,
      revisions: ["2025-11-25"],
    });
    await modern.close();
    await legacy.close();
  });
});
