// Synthetic demo history: tenants, operators, flows, sessions from real client names and
// versions, form and URL records in every state over the last 30 days with their transition
// events, a kill-switch incident, and operator actions in the audit log. Never a raw value: records
// carry field names, schema hashes and error keywords, exactly what the engine would write.
import { createHash } from "node:crypto";
import { count } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import type { Env } from "@/db/config";
import {
  clientProfiles,
  elicitationEvents,
  elicitationRecords,
  flows,
  killSwitchEvents,
  mcpSessions,
  operators,
  origins,
  providers,
  tenants,
  type NewElicitationRecord,
} from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAuditBatch, type AuditInput } from "@/lib/audit/writer";
import { DEMO_END_USERS, DEMO_OPERATORS, DEMO_TENANTS } from "./accounts";
import { declaredModes } from "@/lib/elicitation/capabilities";
import { DEMO_CLIENT_PROFILES, DEMO_CLIENTS, type DemoClient } from "./clients";
import { CLIENT_DISCONNECTED, MODERN_PROTOCOL_VERSION } from "@/lib/elicitation/wire";
import { DEMO_PROVIDER_ID, demoDownstreamIssuer, demoProviderRow } from "./provider";
import { hexId, pick, seededRng, weighted, type Rng } from "./random";
import { fingerprintFor, grantProviderIds, unregisteredProviderIssuer } from "@/lib/policy/fingerprint";
import { flowIdFor, UNREGISTERED_PROFILE } from "@/lib/policy/profile-id";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { appUrl } from "@/lib/auth/oidc-config";
import { servedWorkflows } from "@/lib/workflows/registry";
import type { WorkflowDefinition } from "@/lib/workflows/types";

const DAY = 86_400_000;
const CHUNK = 500;
// Synthetic history predates this deployment's URL; it names the default demo origin.
const DEMO_ORIGIN_PLACEHOLDER = "http://localhost:3000";

type State = NewElicitationRecord["state"];
const COVER: ReadonlyArray<{ state: State; url: boolean }> = [
  { state: "sent", url: false },
  { state: "accepted", url: true },
  { state: "opened", url: true },
  { state: "completed", url: true },
  { state: "completed", url: false },
  { state: "validation_failed", url: false },
  { state: "declined", url: false },
  { state: "cancelled", url: true },
  { state: "timed_out", url: false },
  { state: "failed", url: true },
  { state: "revoked", url: true },
  { state: "expired", url: true },
  { state: "not_sent", url: false },
];
type Event = typeof elicitationEvents.$inferInsert;

const REPORT_FIELDS = ["environment", "format", "from", "to"];
const REPORT_SCHEMA_HASH = createHash("sha256").update(REPORT_FIELDS.join(",")).digest("hex");

export interface SeedOptions {
  records?: number;
  /** The app's public origin (APP_URL): the demo provider and the allowlisted origin hang off it. */
  appUrl?: string;
  now?: Date;
  seed?: number;
  /**
   * The configuration the served instances will have (VAULT_KEY, DEMO_DOWNSTREAM_CLIENT_SECRET):
   * the demo provider's secret is sealed for them. Defaults to this process's.
   */
  env?: Env;
  /** Called after each batch of records is written (for a progress display). */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedSummary {
  records: number;
  sessions: number;
  events: number;
  auditEntries: number;
}

export async function isStoreEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(tenants);
  return (row?.n ?? 0) === 0;
}

export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const total = options.records ?? 2000;
  const now = options.now ?? new Date();
  const rng = seededRng(options.seed ?? 20261130);
  return db.transaction(async (tx) => {
    await seedReferenceData(tx, now, options.appUrl ?? appUrl(), options.env);
    const sessions = makeSessions(rng, Math.max(8, Math.ceil(total / 12)), now);
    for (let i = 0; i < sessions.length; i += CHUNK) await tx.insert(mcpSessions).values(sessions.slice(i, i + CHUNK));
    let events = 0;
    let batch: { records: NewElicitationRecord[]; events: Event[] } = { records: [], events: [] };
    // The first records cover every resting state once, so even a tiny demo shows each of them.
    const urlSessions = sessions.filter((x) => x.urlDeclared);
    for (let i = 0; i < total; i++) {
      const forced = i < COVER.length ? COVER[i] : undefined;
      const session = forced && urlSessions.length ? pick(rng, urlSessions) : pick(rng, sessions);
      const made = makeRecord(rng, session, now, forced);
      batch.records.push(made.record);
      batch.events.push(...made.events);
      if (batch.records.length === CHUNK || i === total - 1) {
        await tx.insert(elicitationRecords).values(batch.records);
        await tx.insert(elicitationEvents).values(batch.events);
        events += batch.events.length;
        options.onProgress?.(i + 1, total);
        batch = { records: [], events: [] };
      }
    }
    const audit = await appendAuditBatch(tx, operatorHistory(rng, now, total));
    return { records: total, sessions: sessions.length, events, auditEntries: audit.length };
  });
}

async function seedReferenceData(tx: Tx, now: Date, base: string, env?: Env): Promise<void> {
  await tx.insert(tenants).values([...DEMO_TENANTS]);
  await tx.insert(operators).values(DEMO_OPERATORS.map((o) => ({ subject: o.subject, displayName: o.displayName, roles: [o.role] })));
  await tx.insert(providers).values(demoProviderRow(base, env));
  await tx.insert(origins).values({
    origin: base,
    redirectUris: [`${base}/connect/callback`],
    providerId: DEMO_PROVIDER_ID,
    note: "development loopback origin",
    createdBy: DEMO_OPERATORS[0]!.subject,
  });
  await tx
    .insert(clientProfiles)
    .values(
      DEMO_CLIENT_PROFILES.map((p) => ({ ...p, createdBy: DEMO_OPERATORS[0]!.subject, createdAt: new Date(now.getTime() - 41 * DAY) })),
    );
  // Every workflow this deployment serves (with the conformance fixtures when they are enabled).
  await tx.insert(flows).values(demoFlows(servedWorkflows(), base, now));
  await tx.insert(killSwitchEvents).values([
    {
      scope: "mode:url",
      active: true,
      reason: "Phishing report under investigation",
      actor: DEMO_OPERATORS[1]!.subject,
      at: new Date(now.getTime() - 12 * DAY),
    },
    {
      scope: "mode:url",
      active: false,
      reason: "Report was a false positive",
      actor: DEMO_OPERATORS[0]!.subject,
      at: new Date(now.getTime() - 12 * DAY + 3_600_000),
    },
  ]);
}

export const flowId = flowIdFor;

// Seeded stages, as an operator could have set them: the report promoted everywhere, the purge
// and the repository listing in a 20% canary. The `ctl` profile (tokens from `ctl token`) is
// promoted for every workflow so a manual test just works, and `unregistered` (any client id no
// admin mapped, e.g. MCP Inspector through dynamic registration) is a 100% canary in the demo
// only: a real deployment starts it at FLOW_NEW_STAGE (off by default).
const DEMO_STAGES: Record<string, { stage: "promoted" | "canary"; canaryPercent: number }> = {
  generate_report: { stage: "promoted", canaryPercent: 0 },
  purge_report_cache: { stage: "canary", canaryPercent: 20 },
  list_repositories: { stage: "canary", canaryPercent: 20 },
};

function demoFlows(workflows: readonly WorkflowDefinition[], base: string, now: Date): Array<typeof flows.$inferInsert> {
  const profiles = [...new Set(DEMO_CLIENT_PROFILES.map((p) => p.profileId)), UNREGISTERED_PROFILE];
  return workflows.flatMap((wf) =>
    profiles.map((profileId) => {
      const seeded = DEMO_STAGES[wf.name] ?? { stage: "canary" as const, canaryPercent: 20 };
      const entry =
        profileId === "ctl"
          ? { stage: "promoted" as const, canaryPercent: 0 }
          : profileId === UNREGISTERED_PROFILE
            ? { stage: "canary" as const, canaryPercent: 100 }
            : seeded;
      // The same trusted inputs the engine fingerprints (lib/policy/resolve-flow.ts): the bundled
      // development issuer and the issuers the registry holds for the workflow's grant providers
      // (the demo provider is the only one seeded), so a demo flow is not marked for retest by its first call.
      const providerIssuers = grantProviderIds(wf.needs).map((id) =>
        id === DEMO_PROVIDER_ID ? demoDownstreamIssuer(base) : unregisteredProviderIssuer(id),
      );
      const fp = fingerprintFor({ workflow: wf.name, profileId, needs: wf.needs, issuer: `${base}/oidc`, providerIssuers });
      return {
        id: flowId(wf.name, profileId),
        workflow: wf.name,
        profileId,
        serverVersion: SERVER_VERSION,
        stage: entry.stage,
        canaryPercent: entry.canaryPercent,
        fingerprint: fp.fingerprint,
        fingerprintInputs: fp.inputs,
        retestRequired: entry.stage !== "promoted",
        setupUrl: wf.name === "list_repositories" ? `${base}/setup/demo-git` : null,
        createdAt: new Date(now.getTime() - 40 * DAY),
        updatedAt: new Date(now.getTime() - 10 * DAY),
      };
    }),
  );
}

const PROFILE_OF_CLIENT = new Map(DEMO_CLIENTS.map((c) => [c.name, c.profile]));

function makeSessions(rng: Rng, n: number, now: Date) {
  const table = DEMO_CLIENTS.map((c) => [c, c.weight] as const);
  return Array.from({ length: n }, () => {
    const client: DemoClient = weighted(rng, table);
    const user = pick(rng, DEMO_END_USERS);
    const modes = declaredModes(client.capabilities);
    const createdAt = new Date(now.getTime() - rng() * 30 * DAY);
    return {
      id: `demo-${hexId(rng)}`,
      subject: user.subject,
      tenantId: user.tenantId,
      clientName: client.name,
      clientVersion: client.version,
      protocolVersion: "2025-11-25",
      capabilities: client.capabilities,
      formDeclared: modes.form,
      urlDeclared: modes.url,
      instanceId: "demo-seed",
      createdAt,
      lastSeenAt: createdAt,
    };
  });
}

type Session = ReturnType<typeof makeSessions>[number];

function makeRecord(
  rng: Rng,
  s: Session,
  now: Date,
  forced?: { state: State; url: boolean },
): { record: NewElicitationRecord; events: Event[] } {
  const url = forced ? forced.url && s.urlDeclared : s.urlDeclared && rng() < 0.3;
  const form = forced ? !url : !url && s.formDeclared;
  const tool = url ? "list_repositories" : "generate_report";
  const inFlight = forced ? ["sent", "accepted", "opened"].includes(forced.state!) : rng() < 0.03;
  // In-flight records are recent (the last three hours); finished ones spread over 30 days.
  const age = inFlight ? rng() * 3 * 3_600_000 : 3 * 3_600_000 + rng() * (30 * DAY - 3 * 3_600_000);
  const createdAt = new Date(now.getTime() - age);
  const recent = inFlight;
  const state: State = forced
    ? forced.state
    : !form && !url
      ? "not_sent" // a fallback record: the client could not be asked; the manual path was returned
      : weighted<State>(
          rng,
          recent
            ? [
                ["sent", 5],
                ["accepted", url ? 3 : 0],
                ["opened", url ? 3 : 0],
              ]
            : url
              ? [
                  ["completed", 62],
                  ["declined", 9],
                  ["cancelled", 8],
                  ["failed", 4],
                  ["expired", 6],
                  ["revoked", 3],
                  ["timed_out", 4],
                ]
              : [
                  ["completed", 64],
                  ["declined", 10],
                  ["cancelled", 8],
                  ["validation_failed", 9],
                  ["timed_out", 5],
                  ["revoked", 2],
                ],
        );
  const id = hexId(rng);
  // Derived from the id, not drawn, so the rest of the history stays as it was: about a third of
  // the cancels are a client that went away (not a person), and Cursor, which asks for 2026-07-28,
  // carried half of its records in that stateless revision (no session).
  const disconnected = state === "cancelled" && parseInt(id[0]!, 16) < 5;
  const modern = s.clientName === "cursor-vscode" && parseInt(id[1]!, 16) < 8;
  const respondMs = 4_000 + rng() * (url ? 240_000 : 60_000);
  const path: State[] = pathTo(state, url);
  const events: Event[] = [];
  let at = createdAt.getTime();
  let from: State | null = null;
  for (const to of path) {
    const gone = disconnected && to === "cancelled";
    events.push({
      recordId: id,
      fromState: from,
      toState: to!,
      at: new Date(at),
      actorType: to === "revoked" ? "operator" : "system",
      actorId: to === "revoked" ? DEMO_OPERATORS[1]!.subject : gone ? "client-disconnect" : "engine",
      reason: to === "revoked" ? "Stuck handle cleared" : gone ? CLIENT_DISCONNECTED : null,
      detail: to === "validation_failed" ? { fields: ["to"], keywords: ["range"] } : {},
    });
    from = to!;
    at += to === "created" ? 5 : respondMs / Math.max(1, path.length - 2);
  }
  const finished = [
    "not_sent",
    "completed",
    "validation_failed",
    "declined",
    "cancelled",
    "timed_out",
    "failed",
    "revoked",
    "expired",
  ].includes(state!);
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
      sessionId: modern ? null : s.id,
      clientName: s.clientName,
      clientVersion: s.clientVersion,
      protocolVersion: modern ? MODERN_PROTOCOL_VERSION : s.protocolVersion,
      endReason: disconnected ? CLIENT_DISCONNECTED : null,
      requestMethod: "tools/call",
      requestId: String(Math.floor(rng() * 1000)),
      toolName: tool,
      flowId: flowId(tool, PROFILE_OF_CLIENT.get(s.clientName) ?? UNREGISTERED_PROFILE),
      purpose: url ? "Connect your Demo Git account to list repositories" : "Choose the report to generate",
      routeDecision: route,
      routeReason: route === "fallback" ? "client declared no URL mode; setup link returned" : `client declared ${route} mode`,
      schemaHash: url ? null : REPORT_SCHEMA_HASH,
      fieldNames: url ? [] : REPORT_FIELDS,
      validationErrors: state === "validation_failed" ? [{ field: "to", keyword: "range" }] : [],
      providerId: url ? DEMO_PROVIDER_ID : null,
      targetOrigin: url ? DEMO_ORIGIN_PLACEHOLDER : null,
      redirectUri: url ? `${DEMO_ORIGIN_PLACEHOLDER}/connect/callback` : null,
      expiresAt: url ? new Date(createdAt.getTime() + 10 * 60_000) : null,
      createdAt,
      sentAt: new Date(createdAt.getTime() + 5),
      respondedAt: finished || state === "accepted" || state === "opened" ? new Date(createdAt.getTime() + respondMs) : null,
      finishedAt: finished ? new Date(at) : null,
      updatedAt: new Date(at),
    },
  };
}

function pathTo(state: State, url: boolean): State[] {
  switch (state) {
    case "not_sent":
      return ["created", "not_sent"];
    case "sent":
      return ["created", "sent"];
    case "accepted":
      return ["created", "sent", "accepted"];
    case "opened":
      return ["created", "sent", "accepted", "opened"];
    case "completed":
      return url ? ["created", "sent", "accepted", "opened", "completed"] : ["created", "sent", "accepted", "completed"];
    case "validation_failed":
      return ["created", "sent", "accepted", "validation_failed"];
    case "failed":
      return ["created", "sent", "accepted", "opened", "failed"];
    default:
      return ["created", "sent", state];
  }
}

function operatorHistory(rng: Rng, now: Date, records: number): AuditInput[] {
  const [admin, operator, releaser, approver, auditor] = DEMO_OPERATORS;
  const t = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  const list: AuditInput[] = [
    {
      at: t(30),
      actorType: "system",
      actorId: "ctl",
      action: AUDIT_ACTIONS.demoSeeded,
      targetType: "store",
      targetId: "demo",
      detail: { records },
    },
    ...DEMO_CLIENT_PROFILES.map((p): AuditInput => ({
      at: t(29.5),
      actorType: "operator",
      actorId: admin!.subject,
      action: AUDIT_ACTIONS.clientProfileSet,
      targetType: "client_profile",
      targetId: p.clientId,
      detail: { profile: p.profileId, previous_profile: null },
    })),
    {
      at: t(29),
      actorType: "operator",
      actorId: admin!.subject,
      action: AUDIT_ACTIONS.originAdded,
      targetType: "origin",
      targetId: "http://127.0.0.1:3000",
      detail: { redirect_uris: 1 },
    },
    {
      at: t(20),
      actorType: "operator",
      actorId: releaser!.subject,
      action: AUDIT_ACTIONS.flowPromotionRequested,
      targetType: "flow",
      targetId: flowId("generate_report", "visual-studio-code"),
      detail: { stage: "promoted" },
    },
    {
      at: t(19),
      actorType: "operator",
      actorId: approver!.subject,
      action: AUDIT_ACTIONS.approvalApproved,
      targetType: "flow",
      targetId: flowId("generate_report", "visual-studio-code"),
      detail: { gates: 5 },
    },
    {
      at: t(12),
      actorType: "operator",
      actorId: operator!.subject,
      action: AUDIT_ACTIONS.killSwitchOn,
      targetType: "kill_switch",
      targetId: "mode:url",
      detail: { reason: "Phishing report under investigation" },
    },
    {
      at: t(11.9),
      actorType: "operator",
      actorId: admin!.subject,
      action: AUDIT_ACTIONS.killSwitchOff,
      targetType: "kill_switch",
      targetId: "mode:url",
      detail: { reason: "Report was a false positive", requested_by: operator!.subject },
    },
    {
      at: t(3),
      actorType: "operator",
      actorId: auditor!.subject,
      action: AUDIT_ACTIONS.auditExported,
      targetType: "audit_log",
      targetId: "1-6",
      detail: { format: "ndjson", count: 6 },
    },
  ];
  for (let d = 28; d > 0; d -= 1 + Math.floor(rng() * 3)) {
    list.push({
      at: t(d + rng() * 0.5),
      actorType: "operator",
      actorId: pick(rng, DEMO_OPERATORS).subject,
      action: AUDIT_ACTIONS.operatorSignedIn,
      targetType: "console",
      targetId: "session",
      detail: {},
    });
  }
  list.sort((a, b) => a.at!.getTime() - b.at!.getTime());
  return list;
}
