// generate_report: read-only. Environment, format, date range (and an optional title) come from a
// form; the tenant's default region is read from the store, never asked.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { tenants } from "@/db/schema";
import type { DomainIssue, FieldNeed } from "@/lib/elicitation/needs";
import { engineConfig } from "@/lib/elicitation/config";
import { argumentsFor, argumentsHint } from "./arguments";
import { unansweredResult } from "./outcome-result";
import { defineWorkflow, textResult } from "./types";

const DAY = 86_400_000;

export const reportParameters: FieldNeed = {
  kind: "field",
  key: "report_parameters",
  purpose: "Choose the report to generate",
  message: "Choose the report to generate. Nothing is changed; the report is read-only.",
  schema: {
    type: "object",
    properties: {
      environment: { type: "string", title: "Environment", enum: ["staging", "production"], default: "staging" },
      format: {
        type: "string",
        title: "Report format",
        oneOf: [
          { const: "pdf", title: "PDF" },
          { const: "csv", title: "CSV" },
        ],
      },
      from: { type: "string", format: "date", title: "From" },
      to: { type: "string", format: "date", title: "To" },
      title: { type: "string", title: "Report title (optional)", maxLength: 80 },
    },
    required: ["environment", "format"],
  },
  validate: (c) => {
    const issues: DomainIssue[] = [];
    const from = typeof c.from === "string" ? Date.parse(c.from) : undefined;
    const to = typeof c.to === "string" ? Date.parse(c.to) : undefined;
    if (from !== undefined && to !== undefined && from > to) issues.push({ field: "to", keyword: "order" });
    if (from !== undefined && to !== undefined && to - from > 366 * DAY) issues.push({ field: "to", keyword: "range" });
    if (to !== undefined && to > Date.now() + DAY) issues.push({ field: "to", keyword: "future" });
    return issues;
  },
};

export const generateReport = defineWorkflow({
  name: "generate_report",
  title: "Generate a report",
  description:
    "Generates a read-only report for your tenant. Asks for the environment, format and date range in a form, or takes them as arguments; the region is your tenant's default.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  needs: [
    { kind: "authoritative", key: "region", purpose: "The tenant's default region", source: "tenants.default_region" },
    reportParameters,
  ],
  async run(rt) {
    const [tenant] = await rt.db.select({ region: tenants.defaultRegion }).from(tenants).where(eq(tenants.id, rt.tenantId)).limit(1);
    if (!tenant)
      return textResult(`Tenant ${rt.tenantId} is not known to this server. Nothing was done.`, { outcome: "unknown_tenant" }, true);
    const given = argumentsFor(reportParameters, rt.args);
    let answer: { content: Record<string, unknown>; recordId: string | null };
    if (given) {
      const checked = await rt.answerFromArguments(reportParameters, given);
      if (checked.status === "blocked")
        return textResult(`Not done: ${checked.reason}. Nothing was done.`, { outcome: "blocked", reason: checked.reason }, true);
      if (checked.status === "invalid") {
        return textResult(
          `The arguments were not accepted (${checked.errors.map((e) => `${e.field}: ${e.keyword}`).join("; ")}). Nothing was done; correct them and call again.`,
          { outcome: "invalid_arguments", errors: checked.errors },
          true,
        );
      }
      answer = { content: checked.content, recordId: null };
    } else {
      const outcome = await rt.askForm(reportParameters);
      if (outcome.status !== "answered") {
        return unansweredResult(outcome, {
          setupUrl: rt.flow.setupUrl,
          cooldownMinutes: Math.round(engineConfig().cooldownMs / 60_000),
          viaArguments: argumentsHint("generate_report", reportParameters),
        });
      }
      answer = { content: outcome.content, recordId: outcome.recordId };
    }
    const c = answer.content as { environment: string; format: string; from?: string; to?: string; title?: string };
    const report = {
      id: `rpt_${randomBytes(6).toString("hex")}`,
      tenant: rt.tenantId,
      region: tenant.region,
      environment: c.environment,
      format: c.format,
      from: c.from ?? null,
      to: c.to ?? null,
      title: c.title ?? null,
    };
    const range = report.from || report.to ? `, ${report.from ?? "start"} to ${report.to ?? "today"}` : "";
    return textResult(
      `Report ${report.id} generated for ${report.tenant} (${report.region}), ${report.environment}, ${report.format}${range}.`,
      { outcome: "completed", record: answer.recordId, report },
    );
  },
});
