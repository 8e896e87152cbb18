// Each record keeps the client's elicitation capability exactly as declared for the request that
// made it (issue 21: the gates replay the flow's observed clients). A 2026-07-28 client has no
// session, so before this column the gates replayed it as declaring nothing. Over real HTTP with the
// real SDK client (2025-11-25) and hand-built 2026-07-28 requests; read back from PostgreSQL.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { elicitationRecords, flows } from "@/db/schema";
import { DECLARED_ELICITATION_MAX_BYTES } from "@/lib/elicitation/capabilities";
import { clientVariantsFor } from "@/lib/gates/client-variants";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";
import { callTool, MODERN } from "../helpers/mcp-modern-raw";

// No demo records: the flow's observed clients are exactly the ones this file drives.
const mcp = useMcpApp({ records: 0, appUrl: "http://localhost" });
let n = 0;

async function user() {
  const subject = `user-caps-${++n}-${Date.now()}`;
  return { subject, token: await mcp.token({ subject, tenant: "acme" }) };
}
const records = (subject: string) => mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));

/** One 2026-07-28 generate_report call declaring `capabilities`; returns its one record. */
async function modernRecord(capabilities: Record<string, unknown>) {
  const u = await user();
  await callTool(mcp.resource, u.token, "generate_report", { capabilities });
  const rows = await records(u.subject);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("the declared elicitation capability on each record", () => {
  it("2026-07-28: { form: {} }, {} and none are stored exactly as declared, with no session; the gates replay all three", async () => {
    const formOnly = await modernRecord({ elicitation: { form: {} } });
    const empty = await modernRecord({ elicitation: {} });
    const none = await modernRecord({});
    expect(formOnly).toMatchObject({ sessionId: null, protocolVersion: MODERN, state: "sent" });
    expect(formOnly.declaredElicitation).toEqual({ form: {} });
    // `{}` is form-only by the 2025-06-18 rule, but stays `{}`: the replay sends what the client sent.
    expect(empty).toMatchObject({ sessionId: null, state: "sent" });
    expect(empty.declaredElicitation).toEqual({});
    expect(none).toMatchObject({ sessionId: null, state: "not_sent", routeDecision: "fallback" });
    expect(none.declaredElicitation).toBeNull();

    // A 2025-11-25 client in the same flow: its record has a session and the capability of its initialize.
    const u = await user();
    const legacy = await connectClient(mcp.resource, u.token, {
      name: "legacy-caps-client",
      version: "2.0.0",
      capabilities: { elicitation: { form: {}, url: {} } },
      answer: () => ({ action: "decline" }),
    });
    await legacy.call("generate_report");
    await legacy.close();
    const [old] = await records(u.subject);
    expect(old).toMatchObject({ protocolVersion: "2025-11-25", sessionId: expect.any(String) });
    expect(old!.declaredElicitation).toEqual({ form: {}, url: {} });

    expect(new Set([formOnly.flowId, empty.flowId, none.flowId, old!.flowId]).size).toBe(1);
    const [flow] = await mcp.db.select().from(flows).where(eq(flows.id, formOnly.flowId!));
    const profile = await clientVariantsFor(mcp.db, flow!);
    expect(profile.source).toBe("observed");
    // PostgreSQL's jsonb orders an object's keys its own way: compare as objects, not as strings.
    expect(profile.variants).toHaveLength(4);
    expect(profile.variants).toEqual(
      expect.arrayContaining([
        { name: "raw-modern-client", version: "0.0.1", revision: MODERN, elicitation: { form: {} } },
        { name: "raw-modern-client", version: "0.0.1", revision: MODERN, elicitation: {} },
        { name: "raw-modern-client", version: "0.0.1", revision: MODERN, elicitation: undefined },
        { name: "legacy-caps-client", version: "2.0.0", revision: "2025-11-25", elicitation: { form: {}, url: {} } },
      ]),
    );

    // A row written before the column existed (null there) still gets its session's capability.
    await mcp.db.update(elicitationRecords).set({ declaredElicitation: null }).where(eq(elicitationRecords.id, old!.id));
    const fallback = await clientVariantsFor(mcp.db, flow!);
    expect(fallback.variants.find((v) => v.name === "legacy-caps-client")?.elicitation).toEqual({ form: {}, url: {} });
  });

  it("an oversized declaration is dropped (stored as none), not cut; the call still proceeds on the declared modes", async () => {
    const junk = "x".repeat(DECLARED_ELICITATION_MAX_BYTES);
    const row = await modernRecord({ elicitation: { form: {}, junk } });
    expect(row.declaredElicitation).toBeNull();
    // The modes come from the whole declaration, as before: the form was sent.
    expect(row.state).toBe("sent");
    expect(JSON.stringify(row)).not.toContain(junk);
  });

  it("only the elicitation object is kept: other capabilities are not stored", async () => {
    const row = await modernRecord({ elicitation: { form: {} }, sampling: { secret: "canary-sampling-7731" } });
    expect(row.declaredElicitation).toEqual({ form: {} });
    expect(JSON.stringify(row)).not.toContain("canary-sampling-7731");
  });

  it("a prototype key in the declaration is stored as a plain key and pollutes nothing", async () => {
    const declared = JSON.parse('{"form":{},"__proto__":{"polluted":"yes"}}') as Record<string, unknown>;
    const row = await modernRecord({ elicitation: declared });
    expect(Object.keys(row.declaredElicitation ?? {}).sort()).toEqual(["__proto__", "form"].sort());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(row.state).toBe("sent");
  });
});
