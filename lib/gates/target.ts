// Where the gates run and as whom. The target is a deployment's public origin; its MCP endpoint is
// called through real HTTP. Tokens: with the bundled development provider the gate mints them
// in-process for the flow's OAuth client id (the `ctl token --client ID` path: same persisted keys,
// so run with the deployment's DATA_DIR); against a deployment with a real identity provider the
// pipeline passes a token it obtained for a test user (GATES_ACCESS_TOKEN / --token).
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import type { Flow } from "@/db/schema";
import { allDevAccounts, DEMO_PASSWORD, gateTesterAccounts, type DevAccount } from "@/lib/auth/dev-idp/accounts";
import { createDevProvider, mintMcpAccessToken, staticClientIds } from "@/lib/auth/dev-idp/provider";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { inCohort } from "@/lib/policy/flows";

export interface BrowserAccount {
  subject: string;
  tenant: string;
  login: string;
  password: string;
}

export interface GateTarget {
  /** The deployment's public origin, e.g. https://staging.example.com. */
  baseUrl: string;
  mcpUrl: string;
  /** The target's store (DATABASE_URL), when the runner can reach it; some checks need it. */
  db?: Db;
  /** The target's log file, when given: searched for canaries. */
  logFile?: string;
  /** The target's METRICS_TOKEN, when given: its metrics are searched for canaries. */
  metricsToken?: string;
  /** Chromium for the accessibility gate (CHROMIUM_PATH, default /usr/bin/chromium). */
  chromiumPath: string;
  /** The deployment's form timeout (ELICITATION_TIMEOUT_SECONDS) and how long the gate may wait it out. */
  formTimeoutSeconds: number;
  timeoutBudgetSeconds: number;
  /** Where the deployment sends its spans (OTLP endpoint), when it exports any. */
  tracesExportedTo?: string;
}

export interface TokenSource {
  kind: "minted" | "given";
  /** A token for a fresh test subject (isolates checks from each other's cool-downs). */
  fresh(label: string): Promise<{ token: string; subject: string }>;
  /** A token for the browser test user (the one who signs in at the connect page). */
  forAccount(account: BrowserAccount): Promise<string>;
  /** The users that sign in through the browser, or null (and why) when there is none. */
  user: BrowserAccount | null;
  other: BrowserAccount | null;
  noUser: string | null;
}

const asBrowserAccount = (a: DevAccount): BrowserAccount => ({
  subject: a.subject,
  tenant: a.tenant,
  login: a.login,
  password: DEMO_PASSWORD,
});

/** Whether the flow lets this subject in now (a canary flow admits only its cohort). */
export function admits(flow: Flow, subject: string): boolean {
  if (flow.stage === "promoted") return true;
  return flow.stage === "canary" && inCohort(subject, flow.id, flow.canaryPercent);
}

export function admitsAnyone(flow: Flow): boolean {
  return flow.stage === "promoted" || (flow.stage === "canary" && flow.canaryPercent > 0);
}

/**
 * Tokens for the flow's client id. `given`: one token for every call (a real IdP; checks that need
 * a second user or a browser sign-in then say they could not run).
 */
export function tokenSource(
  target: GateTarget,
  flow: Flow,
  clientId: string,
  given?: string,
  env: NodeJS.ProcessEnv = process.env,
): TokenSource {
  if (given) {
    return {
      kind: "given",
      fresh: async () => ({ token: given, subject: "(the given token's subject)" }),
      forAccount: async () => given,
      user: null,
      other: null,
      noUser: "could not run: with a given token (another identity provider) the gate cannot sign in as a test user in the browser",
    };
  }
  // The development provider as the target sees it: its issuer and resource are the target's.
  const targetEnv = { ...env, APP_URL: target.baseUrl, MCP_RESOURCE: target.mcpUrl };
  const cfg = oidcConfig(targetEnv);
  if (!cfg.devProvider)
    throw new Error("the target uses another identity provider: pass a token for a test user (GATES_ACCESS_TOKEN or --token)");
  if (!staticClientIds().includes(clientId))
    throw new Error(`no token can be minted for client id ${clientId}: the development provider knows ${staticClientIds().join(", ")}`);
  const provider = createDevProvider(targetEnv);
  // The browser user must be admitted by the flow: a gate tester inside its canary share first
  // (the share is not raised for the gate), then any other account; the other user is anyone else.
  const user = [...gateTesterAccounts(), ...allDevAccounts()].find((a) => admits(flow, a.subject));
  const other =
    allDevAccounts().find((a) => a.subject !== user?.subject && a.tenant !== user?.tenant) ??
    allDevAccounts().find((a) => a.subject !== user?.subject);
  const mint = (subject: string, tenant: string) =>
    mintMcpAccessToken(provider, { subject, tenant, ttlSeconds: 900, mcpResource: cfg.mcpResource, clientId });
  return {
    kind: "minted",
    async fresh(label) {
      // A canary flow admits a stable share of subjects: draw test subjects until one is in it.
      for (let i = 0; i < 2000; i++) {
        const subject = `gate-${label}-${randomBytes(4).toString("hex")}`;
        if (admits(flow, subject)) return { token: await mint(subject, "acme"), subject };
      }
      throw new Error(`no test subject is admitted by flow ${flow.id} (${flow.stage}, ${flow.canaryPercent}%)`);
    },
    forAccount: (a) => mint(a.subject, a.tenant),
    user: user ? asBrowserAccount(user) : null,
    other: other ? asBrowserAccount(other) : null,
    noUser: user
      ? null
      : `could not run: no test user of the development provider is admitted by ${flow.id} (${flow.stage}${flow.stage === "canary" ? ` at ${flow.canaryPercent}%` : ""}); gate it at a larger canary share`,
  };
}
