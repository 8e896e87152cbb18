// An upstream's -32042 (URL elicitation required) through the gateway, with clients of both
// revisions: each listed link goes through the engine like any upstream URL-mode request (URL
// check, the upstream's origin allowlist, record, audit); the client sees a URL-mode elicitation
// in its own revision; once the person accepted and the upstream reported completion, the call
// is retried and its result returned. A phishing link is refused with a plain explanation and a
// blocked record (its history in the events, the link stored nowhere); a declined link, a malformed -32042 and an upstream that answers -32042 again
// after the retry end with a plain "Not done", never a loop.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { elicitationEvents } from "@/db/schema";
import { useGatewayApp, type Answerer, type Revision } from "../helpers/gateway-app";
import { text, startHostileUpstream } from "../helpers/upstream-servers";

process.env.FLOW_NEW_STAGE = "canary:100";
process.env.ELICITATION_COOLDOWN_SECONDS = "0";

const gw = useGatewayApp({ subjectPrefix: "user-url-req" });
// The upstream's side of its own URL flow: the person "finishes at the link" when the test says so.
let finish: (() => Promise<void>) | undefined;
let granted = 0;
let linkCalls = 0;

beforeAll(async () => {
  const up = await gw.serve(
    startHostileUpstream({
      connect: async ({ args, complete }) => {
        linkCalls++;
        if (granted > 0) {
          granted--;
          return text("connect: connected");
        }
        const id = `up-link-${linkCalls}`;
        finish = async () => {
          granted++;
          await complete(id);
        };
        throw new UrlElicitationRequiredError([
          { mode: "url", message: "Connect your account first", url: String(args.note), elicitationId: id },
        ]);
      },
      // Completes at once and still answers -32042 on the retry: the loop the spec warns of.
      again: async ({ complete }) => {
        setTimeout(() => void complete("up-again").catch(() => {}), 50);
        throw new UrlElicitationRequiredError([
          { mode: "url", message: "Again", url: "https://github.com/login/device", elicitationId: "up-again" },
        ]);
      },
      malformed: async () => {
        throw new McpError(-32042, "URL elicitation required", {
          elicitations: Array.from({ length: 5 }, (_, i) => ({
            mode: "url",
            message: "m",
            url: "https://github.com/x",
            elicitationId: `e${i}`,
          })),
        });
      },
    }),
  );
  await gw.register({
    id: "linky",
    displayName: "Linky",
    url: up.url,
    tenants: ["acme"],
    exposedTools: ["*"],
    urlOrigins: ["https://github.com"],
  });
}, 60_000);
async function client(revision: Revision, answer: Answerer) {
  const { subject, token } = await gw.person();
  const c = await gw.connect(revision, token, { capabilities: { elicitation: { form: {}, url: {} } }, answer });
  return { c, subject };
}

const recordsOf = gw.recordsOf;

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`a -32042 from the upstream, with a ${revision} client`, () => {
    it("the link reaches the person as URL mode; after its completion the call is retried and its result returned", async () => {
      const { c, subject } = await client(revision, () => {
        // The person opens the link and finishes there; the upstream then reports completion.
        setTimeout(() => void finish?.(), 100);
        return { action: "accept" };
      });
      const r = await c.call("linky__connect", { note: "https://github.com/login/device" });
      expect(r).toMatchObject({ text: "connect: connected", isError: false });
      expect(c.received).toHaveLength(1);
      const [row] = await recordsOf(subject);
      expect(c.received[0]).toMatchObject({ mode: "url", url: "https://github.com/login/device", message: "Connect your account first" });
      // The client sees the gateway's record id, never the upstream's elicitation id (2026-07-28 has none).
      if (revision === "2025-11-25") expect(c.received[0]!.elicitationId).toBe(row!.id);
      expect(row).toMatchObject({
        mode: "url",
        routeDecision: "url",
        state: "completed",
        upstreamId: "linky",
        targetOrigin: "https://github.com",
        protocolVersion: revision,
      });
      expect(row!.upstreamRequestId).toMatch(/^-32042:up-link-\d+$/);
      await c.close();
    }, 60_000);

    it("a phishing link (look-alike host) is refused with a plain explanation and a blocked record; nothing is shown", async () => {
      const { c, subject } = await client(revision, () => ({ action: "accept" }));
      const r = await c.call("linky__connect", { note: "https://g\u0456thub.com/login/device" });
      expect(c.received).toHaveLength(0);
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Not done: Linky (linky) needs a link to be opened before it can do this, and it was not opened.");
      expect(r.text).toContain("The gateway did not show a link from Linky (linky)");
      expect(r.structured).toMatchObject({ outcome: "url_required_not_opened" });
      const rows = await recordsOf(subject);
      expect(rows).toEqual([expect.objectContaining({ mode: "url", routeDecision: "blocked", state: "not_sent", targetOrigin: null })]);
      expect(rows[0]!.routeReason).toContain("URL check");
      // Its history is written; the refused link itself is stored nowhere (records, events, audit log).
      expect(await gw.db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, rows[0]!.id))).not.toHaveLength(0);
      const dump = JSON.stringify(
        await gw.db.execute(
          sql`select (select json_agg(r)::text from elicitation_records r) || (select json_agg(e)::text from elicitation_events e) || (select coalesce(json_agg(a)::text, '') from audit_log a) as all`,
        ),
      );
      expect(dump).not.toContain("g\u0456thub");
      await c.close();
    }, 60_000);

    it("a link the person declines ends the call plainly; the record says declined", async () => {
      const { c, subject } = await client(revision, () => ({ action: "decline" }));
      const r = await c.call("linky__connect", { note: "https://github.com/login/device" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("it was not opened");
      expect((await recordsOf(subject))[0]).toMatchObject({ state: "declined" });
      await c.close();
    }, 60_000);

    it("an upstream that answers the same -32042 again after the retry is not looped on: the person is asked once", async () => {
      const { c, subject } = await client(revision, () => ({ action: "accept" }));
      const r = await c.call("linky__again");
      expect(r.isError).toBe(true);
      expect(r.text).toContain("asked again for a link to be opened after the gateway retried the call");
      expect(c.received).toHaveLength(1);
      expect(await recordsOf(subject)).toHaveLength(1);
      await c.close();
    }, 60_000);
  });
}

describe("a malformed -32042", () => {
  it("more links than allowed: nothing is shown or recorded, the client is told plainly", async () => {
    const { c, subject } = await client("2025-11-25", () => ({ action: "accept" }));
    const r = await c.call("linky__malformed");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("its request was malformed");
    expect(c.received).toHaveLength(0);
    expect(await recordsOf(subject)).toHaveLength(0);
    await c.close();
  }, 60_000);
});
