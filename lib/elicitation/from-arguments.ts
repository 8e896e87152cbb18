// A need's values given as tool arguments instead of in a form. Nothing is asked, so nothing is
// elicited and no elicitation record is written; but the same rules apply as to a form answer:
// the form request must pass the linter (a need that must never be a form field must never be an
// argument either), the kill switches and the flow's stage govern it (global and flow scopes: the
// mode:form switch stops forms, and this is not one), and the values are validated by the schema
// (no extra properties), the credential scan and the domain rules. Only field names and keywords
// are logged; the values go back to the workflow and are kept nowhere.
import { logger } from "@/lib/log/logger";
import { policyView } from "@/lib/policy/policy-view";
import { scanContent } from "./credential-scan";
import type { AskContext } from "./engine";
import { lintFormRequest } from "./lint";
import type { DomainIssue, FieldNeed } from "./needs";
import { policyBlock } from "./router";
import { validateAgainstSchema } from "./schema-validation";

export type ArgumentsOutcome =
  | { status: "answered"; content: Record<string, unknown> }
  | { status: "invalid"; errors: DomainIssue[] }
  | { status: "blocked"; reason: string };

export async function answerFromArguments(ctx: AskContext, need: FieldNeed, given: Record<string, unknown>): Promise<ArgumentsOutcome> {
  const lint = lintFormRequest({ message: need.message, requestedSchema: need.schema });
  if (lint.verdict === "block")
    return { status: "blocked", reason: `refused by the linter: ${lint.reasons.map((r) => r.code).join(", ")}` };
  const blocked = policyBlock(await policyView(ctx.policy, ctx.flow, ctx.subject), null);
  if (blocked) return { status: "blocked", reason: blocked.reason };
  let errors: DomainIssue[] = validateAgainstSchema(need.schema, given);
  if (errors.length === 0) errors = scanContent(given);
  if (errors.length === 0 && need.validate) errors = await need.validate(given);
  logger.info(
    {
      event: "elicitation.arguments",
      tool: ctx.request.toolName,
      flow: ctx.flow.id,
      fields: Object.keys(given).filter((k) => Object.hasOwn(need.schema.properties, k)),
      errors,
    },
    "values given as arguments",
  );
  return errors.length > 0 ? { status: "invalid", errors } : { status: "answered", content: given };
}
