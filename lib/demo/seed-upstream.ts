// The demo's upstream MCP server as if it had been in use for two weeks: its registry row (tenant
// acme, every tool, URL-mode links to https://example.com; `npm run demo` points its URL at the
// server-everything it starts), the flows of its two eliciting tools, and a share of the synthetic
// records coming from it (forms from `trigger-elicitation-request`, links from
// `trigger-url-elicitation`), so the Upstreams page and Records show it at once. Like the rest of
// the seed: field names and a schema hash, never a value. A step of its own after seedDemo (only
// `npm run demo` takes it), so the stores other tests seed have no upstream they did not add.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { elicitationEvents, elicitationRecords, flows, mcpSessions, upstreams, type NewElicitationRecord } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { appUrl } from "@/lib/auth/oidc-config";
import { exposedToolName, flowWorkflowName } from "@/lib/gateway/tool-names";
import { fingerprintFor } from "@/lib/policy/fingerprint";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { flowIdFor, UNREGISTERED_PROFILE } from "@/lib/policy/profile-id";
import { DEMO_OPERATORS } from "./accounts";
import { DEMO_CLIENT_PROFILES, DEMO_CLIENTS } from "./clients";
import { hexId, pick, seededRng, weighted, type Rng } from "./random";

export const DEMO_UPSTREAM_ID = "everything";
export const DEMO_UPSTREAM_NAME = "Everything (demo upstream)";
export const DEMO_UPSTREAM_ORIGIN = "https://example.com";
const FORM_TOOL = "trigger-elicitation-request";
const URL_TOOL = "trigger-url-elicitation";
export const DEMO_UPSTREAM_ELICITING_TOOLS = [FORM_TOOL, URL_TOOL] as const;
// The fields server-everything's form asks for (names only).
const FORM_FIELDS = ["name", "check", "firstLine", "email", "homepage", "birthdate", "integer", "number", "untitledSingleSelectEnum"];
const FORM_SCHEMA_HASH = createHash("sha256").update(FORM_FIELDS.join(",")).digest("hex");
const DAY = 86_400_000;

type State = NonNullable<NewElicitationRecord["state"]>;
type Event = typeof elicitationEvents.$inferInsert;

type UpstreamSession = typeof mcpSessions.$inferSelect;

// The flow's workflow name folds the tool's name to the workflow alphabet; the record keeps the name the client called.
const workflowOf = (tool: string) => flowWorkflowName(DEMO_UPSTREAM_ID, tool);

/** The flow rows of the demo upstream's tools, as lib/gateway/demo-upstream.ts also writes them. */
export function demoUpstreamFlow(
  tool: string,
  profileId: string,
  base: string,
  stage: { stage: "promoted" | "canary"; canaryPercent: number },
) {
  const workflow = workflowOf(tool);
  const fp = fingerprintFor({ workflow, profileId, needs: [], issuer: `${base}/oidc`, providerIssuers: [] });
  return {
    id: flowIdFor(workflow, profileId),
    workflow,
    profileId,
    serverVersion: SERVER_VERSION,
    stage: stage.stage,
    canaryPercent: stage.canaryPercent,
    fingerprint: fp.fingerprint,
    fingerprintInputs: fp.inputs,
    retestRequired: stage.stage !== "promoted",
  };
}

export interface UpstreamSeedOptions {
  /** How many records come from the upstream (default 100). */
  records?: number;
  appUrl?: string;
  now?: Date;
  seed?: number;
}

/**
 * Registers the demo upstream (row, flows for every profile, the audited registration) and writes
 * its history on the sessions of acme's people that seedDemo made, in one transaction.
 */
export async function seedDemoUpstream(db: Db, options: UpstreamSeedOptions = {}): Promise<{ records: number }> {
  const now = options.now ?? new Date();
  const rng = seededRng(options.seed ?? 20261201);
  const total = options.records ?? 100;
  const profiles = [...new Set(DEMO_CLIENT_PROFILES.map((p) => p.profileId)), UNREGISTERED_PROFILE];
  const profileOf = new Map(DEMO_CLIENTS.map((c) => [c.name, c.profile]));
  return db.transaction(async (tx) => {
    await seedReference(tx, now, options.appUrl ?? appUrl(), profiles, DEMO_OPERATORS[0]!.subject);
    const sessions = await tx.select().from(mcpSessions).where(eq(mcpSessions.tenantId, "acme"));
    // A tiny demo may have no session of acme's: the upstream is registered, with no history.
    const made = Array.from({ length: sessions.length ? total : 0 }, () => {
      const s = pick(rng, sessions);
      return makeUpstreamRecord(rng, s, profileOf.get(s.clientName) ?? UNREGISTERED_PROFILE, now);
    });
    for (let i = 0; i < made.length; i += 200) {
      const chunk = made.slice(i, i + 200);
      await tx.insert(elicitationRecords).values(chunk.map((m) => m.record));
      await tx.insert(elicitationEvents).values(chunk.flatMap((m) => m.events));
    }
    return { records: made.length };
  });
}

/** The registry row, its flows for every profile, and the audit entry of its registration. */
async function seedReference(tx: Tx, now: Date, base: string, profiles: readonly string[], admin: string): Promise<void> {
  const registered = new Date(now.getTime() - 14 * DAY);
  await tx.insert(upstreams).values({
    id: DEMO_UPSTREAM_ID,
    displayName: DEMO_UPSTREAM_NAME,
    // Where `npm run demo` starts it by default (PORT + 1); the demo updates it when it starts.
    url: "http://127.0.0.1:3001/mcp",
    authKind: "none",
    auth: {},
    tenants: ["acme"],
    exposedTools: ["*"],
    urlOrigins: [DEMO_UPSTREAM_ORIGIN],
    createdBy: admin,
    createdAt: registered,
    updatedAt: registered,
  });
  await tx.insert(flows).values(
    DEMO_UPSTREAM_ELICITING_TOOLS.flatMap((tool) =>
      profiles.map((profileId) => ({
        ...demoUpstreamFlow(
          tool,
          profileId,
          base,
          profileId === "ctl"
            ? { stage: "promoted", canaryPercent: 0 }
            : profileId === UNREGISTERED_PROFILE
              ? { stage: "canary", canaryPercent: 100 }
              : { stage: "canary", canaryPercent: 50 },
        ),
        createdAt: registered,
        updatedAt: registered,
      })),
    ),
  );
  await appendAudit(tx, {
    actorType: "operator",
    actorId: admin,
    action: AUDIT_ACTIONS.upstreamAdded,
    targetType: "upstream",
    targetId: DEMO_UPSTREAM_ID,
    detail: { auth: "none", tenants: ["acme"], tools: 1, origins: 1, source: "demo seed" },
  });
}

function pathTo(state: State, url: boolean): State[] {
  if (state === "not_sent") return ["created", "not_sent"];
  if (state === "completed")
    return url ? ["created", "sent", "accepted", "opened", "completed"] : ["created", "sent", "accepted", "completed"];
  if (state === "validation_failed") return ["created", "sent", "accepted", "validation_failed"];
  return ["created", "sent", state];
}

/** One record of the upstream's, for a session of an acme person, in the last 14 days. */
function makeUpstreamRecord(rng: Rng, s: UpstreamSession, profileId: string, now: Date): { record: NewElicitationRecord; events: Event[] } {
  const url = s.urlDeclared && rng() < 0.35;
  const form = !url && s.formDeclared;
  const tool = url ? URL_TOOL : FORM_TOOL;
  const createdAt = new Date(now.getTime() - 3_600_000 - rng() * (14 * DAY - 3_600_000));
  const state: State =
    !url && !form
      ? "not_sent"
      : weighted<State>(
          rng,
          url
            ? [
                ["completed", 60],
                ["declined", 12],
                ["cancelled", 10],
                ["expired", 8],
                ["failed", 4],
              ]
            : [
                ["completed", 58],
                ["declined", 14],
                ["cancelled", 9],
                ["validation_failed", 8],
                ["timed_out", 5],
                ["failed", 6],
              ],
        );
  const id = hexId(rng);
  const failedReason = `upstream ${DEMO_UPSTREAM_ID} failed: unreachable (ECONNREFUSED)`;
  const events: Event[] = [];
  const respondMs = 3_000 + rng() * (url ? 120_000 : 45_000);
  const path = pathTo(state, url);
  let at = createdAt.getTime();
  let from: State | null = null;
  for (const to of path) {
    events.push({
      recordId: id,
      fromState: from,
      toState: to,
      at: new Date(at),
      actorType: "system",
      actorId: "engine",
      reason: to === "failed" ? failedReason : null,
      detail: to === "validation_failed" ? { fields: ["email"], keywords: ["format"] } : {},
    });
    from = to;
    at += to === "created" ? 5 : respondMs / Math.max(1, path.length - 2);
  }
  const route = state === "not_sent" ? "fallback" : url ? "url" : "form";
  return {
    events,
    record: {
      id,
      mode: url ? "url" : "form",
      state,
      needKind: url ? "grant" : "field",
      subject: s.subject,
      tenantId: s.tenantId,
      sessionId: s.id,
      clientName: s.clientName,
      clientVersion: s.clientVersion,
      protocolVersion: s.protocolVersion,
      requestMethod: "tools/call",
      requestId: String(Math.floor(rng() * 1000)),
      toolName: exposedToolName(DEMO_UPSTREAM_ID, tool),
      flowId: flowIdFor(workflowOf(tool), profileId),
      purpose: `${DEMO_UPSTREAM_NAME}: ${tool}`,
      routeDecision: route,
      routeReason:
        route === "fallback"
          ? "client declared no form mode"
          : route === "url"
            ? "client declared URL mode; the link passed the URL check and the upstream's allowlist"
            : "client declared form mode",
      schemaHash: url ? null : FORM_SCHEMA_HASH,
      fieldNames: url ? [] : FORM_FIELDS,
      validationErrors: state === "validation_failed" ? [{ field: "email", keyword: "format" }] : [],
      targetOrigin: url ? DEMO_UPSTREAM_ORIGIN : null,
      expiresAt: url ? new Date(createdAt.getTime() + 10 * 60_000) : null,
      upstreamId: DEMO_UPSTREAM_ID,
      upstreamRequestId: String(Math.floor(rng() * 50)),
      createdAt,
      sentAt: state === "not_sent" ? null : new Date(createdAt.getTime() + 5),
      respondedAt: ["completed", "declined", "cancelled", "validation_failed"].includes(state!)
        ? new Date(createdAt.getTime() + respondMs)
        : null,
      finishedAt: new Date(at),
      updatedAt: new Date(at),
    },
  };
}
