// The conformance suite's fixture tools (@modelcontextprotocol/conformance names them and says
// what each returns), built on the same engine as every workflow: their questions go through the
// router, linter, validation, records and audit like any other. Served only when
// MCP_CONFORMANCE_FIXTURES=true, and refused in production (lib/workflows/conformance/enabled.ts).
import type { FieldNeed } from "@/lib/elicitation/needs";
import { defineWorkflow, textResult, type WorkflowDefinition, type WorkflowRuntime } from "../types";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function field(key: string, message: string, schema: FieldNeed["schema"]): FieldNeed {
  return { kind: "field", key, purpose: `Conformance fixture: ${key}`, message, schema };
}

/** Asks one form; the fixture's text for each outcome (the suite reads the action and content back). */
async function askAndReport(rt: WorkflowRuntime, need: FieldNeed, done: (content: Record<string, unknown>) => string) {
  return report(await rt.askForm(need), done);
}

function report(outcome: Awaited<ReturnType<WorkflowRuntime["askForm"]>>, done: (content: Record<string, unknown>) => string) {
  if (outcome.status === "answered") return textResult(done(outcome.content), { outcome: "completed", record: outcome.recordId });
  const action = outcome.status === "declined" ? "decline" : outcome.status === "cancelled" ? "cancel" : outcome.status;
  return textResult(
    `Elicitation completed: action=${action}, content={}`,
    { outcome: outcome.status, record: outcome.recordId },
    !["declined", "cancelled"].includes(outcome.status),
  );
}

const completed = (c: Record<string, unknown>) => `Elicitation completed: action=accept, content=${JSON.stringify(c)}`;

const simpleText = defineWorkflow({
  name: "test_simple_text",
  title: "Conformance: simple text",
  description: "Conformance fixture: returns a fixed text.",
  annotations: READ_ONLY,
  needs: [],
  run: async () => textResult("This is a simple text response for testing."),
});

const userInfo = field("user_info", "Please provide your information", {
  type: "object",
  properties: { username: { type: "string", title: "Username" } },
  required: ["username"],
});
const elicitation = defineWorkflow({
  name: "test_elicitation",
  title: "Conformance: elicitation",
  description: "Conformance fixture: asks for a username in a form.",
  annotations: READ_ONLY,
  needs: [userInfo],
  // The suite calls it with a `message`; the fixture asks its own fixed question (input is closed).
  extraArguments: { message: { type: "string", description: "The suite's prompt text (not used)" } },
  run: (rt) => askAndReport(rt, userInfo, completed),
});

const defaultsNeed = field("sep1034_defaults", "Please review the defaults", {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
});
const sep1034 = defineWorkflow({
  name: "test_elicitation_sep1034_defaults",
  title: "Conformance: SEP-1034 defaults",
  description: "Conformance fixture: a form with a default on every primitive.",
  annotations: READ_ONLY,
  needs: [defaultsNeed],
  run: (rt) => askAndReport(rt, defaultsNeed, completed),
});

const enumsNeed = field("sep1330_enums", "Please choose", {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
});
const sep1330 = defineWorkflow({
  name: "test_elicitation_sep1330_enums",
  title: "Conformance: SEP-1330 enums",
  description: "Conformance fixture: a form with all five enum variants.",
  annotations: READ_ONLY,
  needs: [enumsNeed],
  run: (rt) => askAndReport(rt, enumsNeed, completed),
});

const userName = field("user_name", "What is your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
const mrtrElicitation = defineWorkflow({
  name: "test_input_required_result_elicitation",
  title: "Conformance: input required (elicitation)",
  description: "Conformance fixture: asks a name through a multi-round-trip input request.",
  annotations: READ_ONLY,
  needs: [userName],
  run: (rt) => askAndReport(rt, userName, (c) => `Hello, ${String(c.name)}!`),
});

const confirm = field("confirm", "Please confirm", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
function confirmFixture(name: string): WorkflowDefinition {
  return defineWorkflow({
    name,
    title: "Conformance: input required with state",
    description: "Conformance fixture: asks a confirmation; the answer is accepted only with the sealed requestState.",
    annotations: READ_ONLY,
    needs: [confirm],
    // Reached only through a verified requestState (lib/mcp/modern/state-gate.ts).
    run: (rt) => askAndReport(rt, confirm, (c) => `state-ok: confirmed (ok=${String(c.ok)})`),
  });
}

// Two needs in sequence: in 2026-07-28 each round re-runs the workflow, and the first answer comes
// back from the sealed requestState (lib/mcp/wire-2026-07-28.ts), so round 3 completes instead of
// asking step 1 again. In 2025-11-25 the two forms are asked within the one call.
const step1 = field("step1", "Step 1: What is your name?", {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
});
const step2 = field("step2", "Step 2: What is your favorite color?", {
  type: "object",
  properties: { color: { type: "string" } },
  required: ["color"],
});
const multiRound = defineWorkflow({
  name: "test_input_required_result_multi_round",
  title: "Conformance: two input rounds",
  description: "Conformance fixture: asks a name, then a colour, in two rounds.",
  annotations: READ_ONLY,
  needs: [step1, step2],
  async run(rt) {
    const first = await rt.askForm(step1);
    if (first.status !== "answered") return report(first, completed);
    return askAndReport(rt, step2, (c) => `Elicitation completed: name=${String(first.content.name)}, color=${String(c.color)}`);
  },
});

export const CONFORMANCE_FIXTURES: readonly WorkflowDefinition[] = [
  multiRound,
  simpleText,
  elicitation,
  sep1034,
  sep1330,
  mrtrElicitation,
  confirmFixture("test_input_required_result_request_state"),
  confirmFixture("test_input_required_result_tampered_state"),
];
