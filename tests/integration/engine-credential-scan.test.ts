// Issue 11 item 10 through the real engine: answers to a real form over real Streamable HTTP. Every
// evasion that fits the form's title field is rejected with its shape, and no stored row (record,
// events, audit entries) holds any part of it; ordinary titles complete.
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, elicitationEvents, elicitationRecords } from "@/db/schema";
import { normaliseForScan } from "@/lib/elicitation/credential-normalise";
import { useMcpApp } from "../helpers/mcp-app";
import { connectClient } from "../helpers/mcp-client";

interface Case {
  name: string;
  value: string;
  shape?: string;
}
const corpus = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/credential-corpus.json"), "utf8")) as {
  ordinary: Case[];
  evasions: Case[];
};
const TITLE_MAX = 80; // generate_report's title field
const evasions = corpus.evasions.filter((c) => c.value.length <= TITLE_MAX);
const titles = corpus.ordinary.filter(
  (c) => c.name.startsWith("report title:") || c.name.startsWith("Ukrainian:") || c.name.startsWith("German:"),
);
const VALID = { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" };

const mcp = useMcpApp({ records: 0 });
let n = 0;

async function answerTitle(title: string) {
  const subject = `user-scan-${++n}-${Date.now()}`;
  const token = await mcp.token({ subject, tenant: "acme" });
  const c = await connectClient(mcp.resource, token, {
    capabilities: { elicitation: { form: {} } },
    answer: () => ({ action: "accept", content: { ...VALID, title } }),
  });
  try {
    return { r: await c.call("generate_report"), subject };
  } finally {
    await c.close();
  }
}

describe("the engine's credential check", () => {
  it("covers most evasions through the form (the rest are longer than the field allows)", () => {
    expect(evasions.length).toBeGreaterThanOrEqual(40);
    expect(titles.length).toBeGreaterThanOrEqual(50);
  });

  it.each(evasions.map((c) => [c.name, c] as const))("rejects %s and stores no part of it", async (_n, c) => {
    const { r, subject } = await answerTitle(c.value);
    expect(r.structured).toMatchObject({ outcome: "invalid", errors: [{ field: "title", keyword: `credential_like:${c.shape}` }] });
    const records = await mcp.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, subject));
    expect(records.map((x) => x.state)).toEqual(["validation_failed"]);
    const id = records[0]!.id;
    const events = await mcp.db.select().from(elicitationEvents).where(eq(elicitationEvents.recordId, id));
    const audit = await mcp.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    const stored = JSON.stringify([records, events, audit]);
    expect(stored).toContain(`credential_like:${c.shape}`);
    // The longest run of token characters in the value, as typed and as normalised, is nowhere.
    for (const form of [c.value, normaliseForScan(c.value)]) {
      const core = (form.match(/[A-Za-z0-9_\-.]{10,}/g) ?? []).sort((a, b) => b.length - a.length)[0];
      if (core) expect(stored).not.toContain(core);
    }
  });

  it.each(titles.map((c) => [c.name, c.value] as const))("accepts %s", async (_n, value) => {
    const { r } = await answerTitle(value);
    expect(r.structured).toMatchObject({ outcome: "completed" });
  });
});
