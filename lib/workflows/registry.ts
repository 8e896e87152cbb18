// The workflows this server offers. An organisation adds its own here (README, "Writing a workflow").
import { generateReport } from "./generate-report";
import { listRepositories } from "./list-repositories";
import { purgeReportCache } from "./purge-report-cache";
import type { WorkflowDefinition } from "./types";

export const WORKFLOWS: readonly WorkflowDefinition[] = [generateReport, purgeReportCache, listRepositories];
