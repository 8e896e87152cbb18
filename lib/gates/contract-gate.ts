// Contract: for every client variant of the flow, the route the engine takes is the one its
// declared modes call for (form, URL, or the fallback/refusal for a mode the client lacks), and
// accept, decline, cancel, an invalid answer, a form nobody answers (the deployment's form timeout
// waited out when it fits the gate's budget, said "not run" otherwise) and the client going away
// mid-form each end as the guidance says. With the target's store, each record is also checked
// against the tools/call that caused it (request association). Approval flows: the call never asks
// in a form, opens one approval request, a retry before the decision opens no second one, and a
// rejection (decided by the second operator) ends the call as rejected with nothing done.
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq } from "drizzle-orm";
import { elicitationRecords } from "@/db/schema";
import type { FieldNeed } from "@/lib/elicitation/needs";
import { recordEvents } from "@/lib/elicitation/records";
import { declaredModes, variantLabel, type ClientVariant } from "./client-variants";
import { approvalChecks } from "./approval-checks";
import { approvalNeeds, fieldNeeds, grantNeeds, type GateContext } from "./context";
import { validAnswer, schemaProperties } from "./form-values";
import { openSession, withSession, type Answerer, type CallResult, type GateSession } from "./mcp-session";
import { CheckFailure, expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

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
      await runCheck(
        "form need without form mode: fallback or refusal, never a form",
        async () => {
          const { r, s } = await drive(ctx, v, "nofrm", () => ({ action: "cancel" }));
          expectThat(s.received.length === 0, `the client without form mode was sent ${s.received.length} elicitation(s)`);
          expectThat(
            ["fallback", "blocked"].includes(String(r.structured.outcome)),
            `expected outcome fallback or blocked, got ${String(r.structured.outcome)}`,
          );
          return `no elicitation sent; outcome ${String(r.structured.outcome)}`;
        },
        label,
      ),
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
      await runCheck(
        `form ${name} ends ${expected}`,
        async () => {
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
            expectThat(
              rec.requestMethod === "tools/call" && rec.toolName === ctx.workflow.name && s.toolCallIds.map(String).includes(rec.requestId),
              "the record is not tied to the tools/call that caused it",
            );
            return `one form elicitation; outcome ${expected}; record tied to tools/call ${rec.requestId}`;
          }
          return `one form elicitation; outcome ${expected}`;
        },
        label,
      ),
    );
  }
  out.push(await timeoutCheck(ctx, v));
  out.push(await disconnectCheck(ctx, v));
  return out;
}

/**
 * A form the client never answers: the call is told it timed out and the record ends timed_out.
 * The wait is the deployment's own ELICITATION_TIMEOUT_SECONDS; longer than the gate's budget, the
 * check says it did not run and why (it is not reported as passed).
 */
export async function timeoutCheck(ctx: GateContext, v: ClientVariant): Promise<CheckResult> {
  return runCheck(
    "form nobody answers ends timed_out (the call told, the record kept)",
    async () => {
      if (v.revision !== "2025-11-25")
        return {
          outcome: "not_applicable",
          detail:
            "2026-07-28 holds no connection open while the form is shown: an unanswered request ends at its expiry, not at a timeout the call could be told of",
        };
      const { formTimeoutSeconds: limit, timeoutBudgetSeconds: budget } = ctx.target;
      if (limit > budget)
        return {
          outcome: "not_applicable",
          detail: `not run: the form timeout is ${limit} s, longer than the gate's budget of ${budget} s (GATES_TIMEOUT_BUDGET_SECONDS); gate a deployment with a shorter ELICITATION_TIMEOUT_SECONDS or raise the budget`,
        };
      const { token, subject } = await ctx.tokens.fresh("tmo");
      const s = await openSession(ctx.target.mcpUrl, token, v, () => new Promise<never>(() => {}));
      const started = performance.now();
      let r: CallResult;
      try {
        // The client waits well past the deployment's timeout: the server must end the call first.
        r = await s.call(ctx.workflow.name, {}, (limit + 30) * 1000).catch((err: unknown) => {
          throw new CheckFailure(
            `the call did not end within ${limit + 30} s (the deployment's timeout is taken as ${limit} s): ${(err as Error).message}`,
          );
        });
      } finally {
        await s.close().catch(() => {});
      }
      const waited = Math.round((performance.now() - started) / 1000);
      expectThat(s.received.length === 1, `expected exactly one form, the client was asked ${s.received.length} time(s)`);
      expectThat(r.structured.outcome === "timed_out", `the call was told ${String(r.structured.outcome)}, expected timed_out`);
      const db = ctx.target.db;
      if (!db)
        return `waited out the ${limit} s timeout (${waited} s): the call was told timed_out (store not reachable: the record's end not checked)`;
      const [rec] = await db
        .select({ state: elicitationRecords.state })
        .from(elicitationRecords)
        .where(and(eq(elicitationRecords.subject, subject), eq(elicitationRecords.flowId, ctx.flow.id)))
        .limit(1);
      expectThat(rec, "the timed-out call left no record");
      expectThat(rec.state === "timed_out", `the call was told timed_out but the record is ${rec.state}`);
      return `waited out the deployment's ${limit} s timeout (${waited} s, budget ${budget} s): the call was told timed_out and the record ended timed_out`;
    },
    variantLabel(v),
  );
}

/** The client goes away while the form is open: the record ends cancelled as client_disconnected. */
async function disconnectCheck(ctx: GateContext, v: ClientVariant): Promise<CheckResult> {
  return runCheck(
    "client disconnect mid-form ends cancelled (client_disconnected)",
    async () => {
      if (v.revision !== "2025-11-25")
        return {
          outcome: "not_applicable",
          detail:
            "2026-07-28 holds no connection open while the form is shown (the client retries with its answer); an abandoned request ends at its expiry",
        };
      const db = ctx.target.db;
      if (!db)
        return {
          outcome: "could_not_run",
          detail: "could not run: the record's end state is read from the target's store (no DATABASE_URL given)",
        };
      const { token, subject } = await ctx.tokens.fresh("disc");
      const s = await openSession(ctx.target.mcpUrl, token, v, () => new Promise<never>(() => {}));
      const pending = s.call(ctx.workflow.name).catch(() => undefined);
      for (let i = 0; i < 100 && s.received.length === 0; i++) await sleep(100);
      expectThat(s.received.length === 1, "no form arrived to walk away from");
      await s.abandon();
      await pending;
      let rec: { id: string; state: string } | undefined;
      for (let i = 0; i < 150; i++) {
        [rec] = await db
          .select({ id: elicitationRecords.id, state: elicitationRecords.state })
          .from(elicitationRecords)
          .where(and(eq(elicitationRecords.subject, subject), eq(elicitationRecords.flowId, ctx.flow.id)))
          .limit(1);
        if (rec && rec.state !== "sent" && rec.state !== "created") break;
        await sleep(100);
      }
      expectThat(rec, "the call left no record");
      expectThat(rec.state === "cancelled", `the record is ${rec.state} after the client went away, expected cancelled`);
      const last = (await recordEvents(db, rec.id)).at(-1);
      expectThat(
        last?.reason === "client_disconnected",
        `the record was cancelled for "${last?.reason ?? "no reason"}", expected client_disconnected`,
      );
      return "cancelled as client_disconnected, not as a person's cancel";
    },
    variantLabel(v),
  );
}

async function grantChecks(ctx: GateContext, v: ClientVariant): Promise<CheckResult[]> {
  const label = variantLabel(v);
  if (!declaredModes(v).url) {
    return [
      await runCheck(
        "grant need without URL mode: the setup link fallback, never a form",
        async () => {
          const { r, s } = await drive(ctx, v, "nourl", () => ({ action: "cancel" }));
          expectThat(s.received.length === 0, `the client without URL mode was sent ${s.received.length} elicitation(s)`);
          expectThat(r.structured.outcome === "fallback", `expected outcome fallback, got ${String(r.structured.outcome)}`);
          expectThat(
            typeof r.structured.setupUrl === "string" && String(r.structured.setupUrl).startsWith(ctx.target.baseUrl),
            "the fallback names no setup link on the target",
          );
          return `no elicitation sent; fallback with setup link ${String(r.structured.setupUrl)}`;
        },
        label,
      ),
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
      await runCheck(
        `URL ${name} ends ${expected}`,
        async () => {
          const { r, s } = await drive(ctx, v, `url${name}`, () => ({ action }));
          expectThat(s.received.length === 1, `expected exactly one elicitation, the client was asked ${s.received.length} time(s)`);
          const e = s.received[0]!;
          expectThat(e.mode === "url", `the client was sent mode ${String(e.mode ?? "form")}, expected url`);
          expectThat(
            typeof e.url === "string" && e.url.startsWith(`${ctx.target.baseUrl}/connect/`),
            "the URL does not lead to the target's connect page",
          );
          expectThat(r.structured.outcome === expected, `expected outcome ${expected}, got ${String(r.structured.outcome)}`);
          return `one URL elicitation to the connect page; outcome ${expected}`;
        },
        label,
      ),
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
    if (approvalNeeds(ctx.workflow).length > 0) checks.push(...(await approvalChecks(ctx, v)));
  }
  return finishGate("contract", started, checks);
}
