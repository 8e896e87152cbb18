// Contract: for every client variant of the flow, the route the engine takes is the one its
// declared modes call for (form, URL, or the fallback/refusal for a mode the client lacks), and
// accept, decline, cancel and an invalid answer each end as the guidance says. With the target's
// store, each record is also checked against the tools/call that caused it (request association).
import { eq } from "drizzle-orm";
import { elicitationRecords } from "@/db/schema";
import type { FieldNeed } from "@/lib/elicitation/needs";
import { declaredModes, variantLabel, type ClientVariant } from "./client-variants";
import { fieldNeeds, grantNeeds, type GateContext } from "./context";
import { validAnswer, schemaProperties } from "./form-values";
import { withSession, type Answerer, type CallResult, type GateSession } from "./mcp-session";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

async function drive(ctx: GateContext, v: ClientVariant, label: string, answer: Answerer): Promise<{ r: CallResult; s: GateSession }> {
  const { token } = await ctx.tokens.fresh(label);
  return withSession(ctx.target.mcpUrl, token, v, answer, async (s) => ({ r: await s.call(ctx.workflow.name), s }));
}

function invalidAnswer(need: FieldNeed): Record<string, unknown> {
  const content = validAnswer(need.schema);
  // A string the field's rules refuse (outside its choices, not a date, too long): the kind of
  // mistake a person makes, refused by the server's own validation rather than the SDK's types.
  for (const [key, def] of Object.entries(schemaProperties(need.schema))) {
    if (def.type !== "string") continue;
    if (def.enum || def.oneOf) content[key] = "gate-not-a-choice";
    else if (def.format) content[key] = "gate-not-a-valid-format";
    else if (typeof def.maxLength === "number") content[key] = "x".repeat(def.maxLength + 1);
    else continue;
    return content;
  }
  return { ...content, gate_undeclared_field: "gate" };
}

async function formChecks(ctx: GateContext, v: ClientVariant, need: FieldNeed): Promise<CheckResult[]> {
  const label = variantLabel(v);
  if (!declaredModes(v).form) {
    return [
      await runCheck("form need without form mode: fallback or refusal, never a form", async () => {
        const { r, s } = await drive(ctx, v, "nofrm", () => ({ action: "cancel" }));
        expectThat(s.received.length === 0, `the client without form mode was sent ${s.received.length} elicitation(s)`);
        expectThat(["fallback", "blocked"].includes(String(r.structured.outcome)), `expected outcome fallback or blocked, got ${String(r.structured.outcome)}`);
        return `no elicitation sent; outcome ${String(r.structured.outcome)}`;
      }, label),
    ];
  }
  const cases: Array<[string, Answerer, string]> = [
    ["accept", () => ({ action: "accept", content: validAnswer(need.schema) }), "completed"],
    ["decline", () => ({ action: "decline" }), "declined"],
    ["cancel", () => ({ action: "cancel" }), "cancelled"],
    ["invalid answer", () => ({ action: "accept", content: invalidAnswer(need) }), "invalid"],
  ];
  const out: CheckResult[] = [];
  for (const [name, answer, expected] of cases) {
    out.push(
      await runCheck(`form ${name} ends ${expected}`, async () => {
        const { r, s } = await drive(ctx, v, name.replace(/\W/g, ""), answer);
        expectThat(s.received.length === 1, `expected exactly one elicitation, the client was asked ${s.received.length} time(s)`);
        const mode = s.received[0]!.mode ?? "form";
        expectThat(mode === "form", `the client was sent mode ${mode}, expected form`);
        expectThat(r.structured.outcome === expected, `expected outcome ${expected}, got ${String(r.structured.outcome)}`);
        if (name === "accept" && ctx.target.db && v.revision === "2025-11-25") {
          const id = typeof r.structured.record === "string" ? r.structured.record : undefined;
          expectThat(id, "the completed call names no record");
          const [rec] = await ctx.target.db.select().from(elicitationRecords).where(eq(elicitationRecords.id, id)).limit(1);
          expectThat(rec, "the record the call names is not in the store");
          expectThat(rec.state === "completed", `the record is ${rec.state}, expected completed`);
          expectThat(rec.requestMethod === "tools/call" && rec.toolName === ctx.workflow.name && s.toolCallIds.map(String).includes(rec.requestId), "the record is not tied to the tools/call that caused it");
          return `one form elicitation; outcome ${expected}; record tied to tools/call ${rec.requestId}`;
        }
        return `one form elicitation; outcome ${expected}`;
      }, label),
    );
  }
  return out;
}

async function grantChecks(ctx: GateContext, v: ClientVariant): Promise<CheckResult[]> {
  const label = variantLabel(v);
  if (!declaredModes(v).url) {
    return [
      await runCheck("grant need without URL mode: the setup link fallback, never a form", async () => {
        const { r, s } = await drive(ctx, v, "nourl", () => ({ action: "cancel" }));
        expectThat(s.received.length === 0, `the client without URL mode was sent ${s.received.length} elicitation(s)`);
        expectThat(r.structured.outcome === "fallback", `expected outcome fallback, got ${String(r.structured.outcome)}`);
        expectThat(typeof r.structured.setupUrl === "string" && String(r.structured.setupUrl).startsWith(ctx.target.baseUrl), "the fallback names no setup link on the target");
        return `no elicitation sent; fallback with setup link ${String(r.structured.setupUrl)}`;
      }, label),
    ];
  }
  const cases: Array<[string, "accept" | "decline" | "cancel", string]> = [
    ["accept", "accept", "connect_pending"],
    ["decline", "decline", "declined"],
    ["cancel", "cancel", "cancelled"],
  ];
  const out: CheckResult[] = [];
  for (const [name, action, expected] of cases) {
    out.push(
      await runCheck(`URL ${name} ends ${expected}`, async () => {
        const { r, s } = await drive(ctx, v, `url${name}`, () => ({ action }));
        expectThat(s.received.length === 1, `expected exactly one elicitation, the client was asked ${s.received.length} time(s)`);
        const e = s.received[0]!;
        expectThat(e.mode === "url", `the client was sent mode ${String(e.mode ?? "form")}, expected url`);
        expectThat(typeof e.url === "string" && e.url.startsWith(`${ctx.target.baseUrl}/connect/`), "the URL does not lead to the target's connect page");
        expectThat(r.structured.outcome === expected, `expected outcome ${expected}, got ${String(r.structured.outcome)}`);
        return `one URL elicitation to the connect page; outcome ${expected}`;
      }, label),
    );
  }
  return out;
}

export async function contractGate(ctx: GateContext): Promise<GateResult> {
  const started = performance.now();
  const checks: CheckResult[] = [];
  for (const v of ctx.profile.variants) {
    for (const need of fieldNeeds(ctx.workflow)) checks.push(...(await formChecks(ctx, v, need)));
    if (grantNeeds(ctx.workflow).length > 0) checks.push(...(await grantChecks(ctx, v)));
  }
  return finishGate("contract", started, checks);
}
