// The workflows this server offers. An organisation adds its own here (README, "Writing a workflow").
import type { Env } from "@/db/config";
import { conformanceFixturesEnabled } from "./conformance/enabled";
import { CONFORMANCE_FIXTURES } from "./conformance/fixtures";
import { generateReport } from "./generate-report";
import { listRepositories } from "./list-repositories";
import { purgeReportCache } from "./purge-report-cache";
import type { WorkflowDefinition } from "./types";

export const WORKFLOWS: readonly WorkflowDefinition[] = [generateReport, purgeReportCache, listRepositories];

/** What the MCP endpoint serves: the workflows, plus the conformance fixtures when explicitly enabled. */
export function servedWorkflows(env: Env = process.env): readonly WorkflowDefinition[] {
  return conformanceFixturesEnabled(env) ? [...WORKFLOWS, ...CONFORMANCE_FIXTURES] : WORKFLOWS;
}
