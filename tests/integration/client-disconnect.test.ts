// Issue 19: a client that goes away ends its elicitation at once. Over real HTTP with a real SDK
// server: the socket carrying the originating tools/call destroyed mid-form, or the client ending
// its session (DELETE), moves the pending record to `cancelled` with the reason
// `client_disconnected` (not a person's cancel, not timed_out), long before the form timeout.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { createDevProvider, mintMcpAccessToken } from "@/lib/auth/dev-idp/provider";
import { seedDemo } from "@/lib/demo/seed";
import { recordEvents } from "@/lib/elicitation/records";
import { liveSessions } from "@/lib/mcp/live-sessions";
import { rollupDrift } from "@/lib/metrics/rollup-check";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { connectClient } from "../helpers/mcp-client";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
let resource: string;

beforeAll(async () => {
  // A form timeout far beyond the test: only the disconnect can end these records.
  process.env.ELICITATION_TIMEOUT_SECONDS = "3600";
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 1 });
  app = await startAppServer(t.store.db);
  resource = `${app.baseUrl}/api/mcp`;
});
afterAll(async () => {
  delete process.env.ELICITATION_TIMEOUT_SECONDS;
  await app?.close();
  await t?.dispose();
});

const token = (subject: string) =>
  mintMcpAccessToken(createDevProvider(), { subject, tenant: "acme", ttlSeconds: 600, mcpResource: resource });
const recordsOf = (subject: string) => t.store.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));

async function endedByDisconnect(subject: string) {
  await vi.waitFor(async () => expect((await recordsOf(subject)).map((r) => r.state)).toEqual(["cancelled"]), {
    timeout: 15_000,
    interval: 100,
  });
  const [record] = await recordsOf(subject);
  const events = await recordEvents(t.store.db, record!.id);
  expect(events.at(-1)).toMatchObject({ fromState: "sent", toState: "cancelled", reason: "client_disconnected", actorType: "system" });
  // The record itself says so (the rollup, overview and metrics count it apart from a person's cancel).
  expect(record!.endReason).toBe("client_disconnected");
  expect(await rollupDrift(t.store.db)).toEqual([]);
  return record!;
}

/** POSTs a JSON-RPC message on a raw socket and resolves once `until` appears in the response. */
function rawPost(
  headers: Record<string, string>,
  body: unknown,
  until: RegExp,
): Promise<{ req: http.ClientRequest; res: http.IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      resource,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          if (until.test(text)) resolve({ req, res, text });
        });
        res.on("end", () =>
          until.test(text) ? resolve({ req, res, text }) : reject(new Error(`stream ended without ${until}: ${text.slice(0, 300)}`)),
        );
      },
    );
    req.on("error", () => {});
    req.end(JSON.stringify(body));
  });
}

describe("a client that goes away ends its elicitation", () => {
  it("socket of the originating tools/call destroyed mid-form: record cancelled as client_disconnected, session goes on", async () => {
    const subject = `user-gone-${randomUUID()}`;
    const auth = { authorization: `Bearer ${await token(subject)}` };
    const init = await rawPost(
      auth,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: "crashy", version: "1" },
        },
      },
      /"result"/,
    );
    const sid = String(init.res.headers["mcp-session-id"]);
    const session = { ...auth, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    const initialized = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);

    const call = await rawPost(
      session,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "generate_report", arguments: {} } },
      /elicitation\/create/,
    );
    expect((await recordsOf(subject)).map((r) => r.state)).toEqual(["sent"]);
    call.req.destroy();
    call.res.destroy();

    await endedByDisconnect(subject);
    // Only the call's stream went away: the session itself is still there and usable.
    expect(liveSessions().has(sid)).toBe(true);
    const list = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("generate_report");
  });

  it("the client ends its session (DELETE) mid-form: record cancelled as client_disconnected, session released", async () => {
    const subject = `user-leaves-${randomUUID()}`;
    const c = await connectClient(resource, await token(subject), {
      capabilities: { elicitation: { form: {} } },
      answer: () => new Promise(() => {}),
    });
    const sid = c.transport.sessionId!;
    const call = c.call("generate_report").catch((err: unknown) => err);
    await vi.waitFor(() => expect(c.received).toHaveLength(1), { timeout: 10_000 });
    await c.transport.terminateSession();
    const record = await endedByDisconnect(subject);
    expect(record.sessionId).toBe(sid);
    expect(liveSessions().has(sid)).toBe(false);
    await c.close();
    await call;

    // No person cancelled, so the cool-down does not answer for them: calling again asks again.
    const again = await connectClient(resource, await token(subject), {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "decline" }),
    });
    expect((await again.call("generate_report")).structured).toMatchObject({ outcome: "declined" });
    expect(again.received).toHaveLength(1);
    expect((await recordsOf(subject)).map((r) => r.state).sort()).toEqual(["cancelled", "declined"]);
    await again.close();
  });

  it("a person's cancel stays a person's cancel", async () => {
    const subject = `user-cancels-${randomUUID()}`;
    const c = await connectClient(resource, await token(subject), {
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "cancel" }),
    });
    expect((await c.call("generate_report")).structured).toMatchObject({ outcome: "cancelled" });
    const [record] = await recordsOf(subject);
    const events = await recordEvents(t.store.db, record!.id);
    expect(events.at(-1)).toMatchObject({ toState: "cancelled", actorType: "subject" });
    expect(events.at(-1)?.reason).not.toBe("client_disconnected");
    expect(record!.endReason).toBeNull();
    // A person's cancel starts the cool-down: the next call is answered without asking.
    expect((await c.call("generate_report")).structured).toMatchObject({ outcome: "repeat_prevented", record: record!.id });
    expect(c.received).toHaveLength(1);
    await c.close();
  });
});
