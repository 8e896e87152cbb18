// The gate target as the deployment's own configuration describes it, built the same way for a
// run started from the console (this deployment) and from `ctl gates run` (run with the target
// deployment's configuration): the same log file, the same metrics token the deployment checks,
// the same form timeout and trace exporter. So both paths search the same places and the evidence
// says the same thing about what could not be searched.
import type { Db } from "@/db/client";
import type { Env } from "@/db/config";
import { readSetting } from "@/lib/config/schema";
import { secret } from "@/lib/config/secrets";
import { chromiumPathFrom } from "./browser";
import type { GateTarget } from "./target";

export interface TargetInput {
  /** The deployment's public origin (any path is dropped). */
  origin: string;
  db?: Db;
  /** Overrides GATES_LOG_FILE for one run (`ctl gates run --log-file`). */
  logFile?: string;
}

export function gateTargetFor(input: TargetInput, env: Env = process.env): GateTarget {
  const origin = new URL(input.origin).origin;
  const tracesEndpoint = readSetting(env, "OTEL_SDK_DISABLED")
    ? undefined
    : readSetting(env, "OTEL_EXPORTER_OTLP_ENDPOINT") || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || undefined;
  return {
    baseUrl: origin,
    mcpUrl: `${origin}/api/mcp`,
    ...(input.db ? { db: input.db } : {}),
    logFile: input.logFile || readSetting(env, "GATES_LOG_FILE") || undefined,
    // The token the deployment itself checks (configured, or generated into DATA_DIR in development).
    metricsToken: secret("metricsToken", env, { optional: true }),
    chromiumPath: chromiumPathFrom(env as NodeJS.ProcessEnv),
    formTimeoutSeconds: readSetting(env, "ELICITATION_TIMEOUT_SECONDS"),
    timeoutBudgetSeconds: readSetting(env, "GATES_TIMEOUT_BUDGET_SECONDS"),
    ...(tracesEndpoint ? { tracesExportedTo: tracesEndpoint } : {}),
  };
}
