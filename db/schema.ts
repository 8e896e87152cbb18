// The one source of truth for the store. Every enum the product uses is declared here once;
// lib/ derives its zod enums and TypeScript unions from these declarations.
//
// Value-free by design: no column in this file may hold a raw user answer, a token or a secret in
// clear text. Form answers exist only inside the request that asked for them; what lands here is
// field names, error keywords, hashes and ciphertext (vault) bound to its owner.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type {
  AuditDetail,
  ClientCapabilitiesJson,
  DeclaredElicitationJson,
  FingerprintInputs,
  RecordEventDetail,
  UpstreamAuthSettings,
  ValidationIssue,
} from "./json-columns";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------
export const elicitationMode = pgEnum("elicitation_mode", ["form", "url"]);

// How a record moves through these: README, "The elicitation engine" and "URL mode". `opened` and
// `failed` only occur in URL mode.
// `not_sent` ends a record whose route was blocked or fallback: nothing reached the client, and the
// record keeps the router's decision and reason for the console.
export const elicitationState = pgEnum("elicitation_state", [
  "created",
  "not_sent",
  "sent",
  "accepted",
  "opened",
  "completed",
  "validation_failed",
  "declined",
  "cancelled",
  "timed_out",
  "failed",
  "revoked",
  "expired",
]);

// Why a record ended, where its state alone does not say. `client_disconnected`: the client went
// away (stream closed, session ended or evicted) while the record was pending; the state is
// `cancelled`, but no person cancelled. Null: the state says it all (a person's cancel is
// `cancelled` with no end reason, nobody answering in time is `timed_out`).
export const endReason = pgEnum("end_reason", ["client_disconnected"]);

export const routeDecision = pgEnum("route_decision", ["form", "url", "fallback", "blocked"]);

// What a workflow needs from the user; decides which routes are even possible.
export const needKind = pgEnum("need_kind", ["field", "credential", "payment", "grant", "approval", "authoritative"]);

export const flowStage = pgEnum("flow_stage", ["off", "canary", "promoted", "rolled_back"]);

export const gateName = pgEnum("gate_name", ["contract", "privacy", "phishing", "recovery", "accessibility"]);

export const approvalKind = pgEnum("approval_kind", ["promotion", "workflow_action"]);

// `consumed`: an approved workflow action that has run; it cannot authorise a second run.
export const approvalState = pgEnum("approval_state", ["pending", "approved", "rejected", "consumed", "superseded", "expired"]);

export const actorType = pgEnum("actor_type", ["operator", "system", "subject"]);

export const operatorRole = pgEnum("operator_role", ["admin", "operator", "releaser", "approver", "auditor", "viewer"]);

export const connectionStatus = pgEnum("connection_status", ["active", "revoked"]);

// How the gateway authenticates to an upstream MCP server (lib/gateway/): nothing, a header whose
// value is a named secret in configuration, or OAuth client credentials at the upstream's issuer.
export const upstreamAuthKind = pgEnum("upstream_auth_kind", ["none", "header", "oauth_client_credentials"]);

// ---------------------------------------------------------------------------------------------
// Identity and tenancy
// ---------------------------------------------------------------------------------------------
export const tenants = pgTable("tenants", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  // An authoritative value workflows read instead of asking the user (generate_report).
  defaultRegion: text("default_region").notNull(),
  createdAt: tstz("created_at").notNull().defaultNow(),
});

// Operators are keyed by the OIDC `sub`. Roles come from the issuer's roles claim and are
// refreshed at every sign-in; the server re-reads them (and `disabled_at`) on every request.
export const operators = pgTable(
  "operators",
  {
    subject: text("subject").primaryKey(),
    displayName: text("display_name").notNull(),
    roles: operatorRole("roles").array().notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    lastSeenAt: tstz("last_seen_at"),
    disabledAt: tstz("disabled_at"),
  },
  (t) => [index("operators_roles_idx").using("gin", t.roles)],
);

// Browser sessions (console and connect pages). The session cookie is a JWT (next-auth) that names
// one of these rows; every request re-reads it, so signing out, an admin ending the sessions of an
// operator, or expiry end the session on the server, not only in the browser that holds the cookie.
export const consoleSessions = pgTable(
  "console_sessions",
  {
    // 128-bit CSPRNG id, hex: carried inside the encrypted session cookie.
    id: text("id").primaryKey(),
    subject: text("subject").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    expiresAt: tstz("expires_at").notNull(),
    endedAt: tstz("ended_at"),
    endedBy: text("ended_by"),
    // signed_out | ended_by_admin
    endReason: text("end_reason"),
  },
  (t) => [index("console_sessions_subject_idx").on(t.subject, t.endedAt)],
);

// ---------------------------------------------------------------------------------------------
// MCP sessions: the capability manifest exactly as the client sent it.
// ---------------------------------------------------------------------------------------------
export const mcpSessions = pgTable(
  "mcp_sessions",
  {
    id: text("id").primaryKey(),
    subject: text("subject").notNull(),
    tenantId: text("tenant_id").notNull(),
    clientName: text("client_name").notNull(),
    clientVersion: text("client_version").notNull(),
    protocolVersion: text("protocol_version").notNull(),
    // Stored verbatim (an empty `elicitation: {}` stays `{}`), never normalised.
    capabilities: jsonb("capabilities").$type<ClientCapabilitiesJson>().notNull(),
    // Derived once at initialize: which modes the client declared ({} means form only).
    formDeclared: boolean("form_declared").notNull(),
    urlDeclared: boolean("url_declared").notNull(),
    instanceId: text("instance_id").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    lastSeenAt: tstz("last_seen_at").notNull().defaultNow(),
    closedAt: tstz("closed_at"),
  },
  (t) => [
    index("mcp_sessions_client_idx").on(t.clientName, t.clientVersion),
    index("mcp_sessions_created_idx").on(t.createdAt),
    // The per-subject session cap counts a subject's open sessions on every initialize.
    index("mcp_sessions_open_subject_idx")
      .on(t.subject, t.tenantId, t.lastSeenAt)
      .where(sql`closed_at is null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Client profiles: which verified OAuth client ids (the access token's client_id / azp) belong to
// which admin-defined profile. A client id with no active row belongs to the profile
// "unregistered". clientInfo (self-declared) never selects a profile; see lib/policy/flows.ts.
// ---------------------------------------------------------------------------------------------
export const clientProfiles = pgTable(
  "client_profiles",
  {
    clientId: text("client_id").primaryKey(),
    // Validated in lib/policy/client-profiles.ts; the check keeps psql edits inside the same shape.
    profileId: text("profile_id").notNull(),
    displayName: text("display_name").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    disabledAt: tstz("disabled_at"),
  },
  (t) => [
    index("client_profiles_profile_idx").on(t.profileId),
    check("client_profiles_profile_ck", sql`${t.profileId} ~ '^[a-z0-9][a-z0-9-]{0,62}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Flows: a workflow x client profile combination with its rollout stage. The id is
// `workflow:profile`.
// ---------------------------------------------------------------------------------------------
export const flows = pgTable(
  "flows",
  {
    id: text("id").primaryKey(),
    workflow: text("workflow").notNull(),
    profileId: text("profile_id").notNull(),
    serverVersion: text("server_version").notNull(),
    stage: flowStage("stage").notNull().default("off"),
    // Share of subjects (0..100) that a canary flow admits; ignored in other stages.
    canaryPercent: integer("canary_percent").notNull().default(0),
    // Hash over the version fingerprint inputs; gate evidence is bound to it.
    fingerprint: text("fingerprint").notNull(),
    fingerprintInputs: jsonb("fingerprint_inputs").$type<FingerprintInputs>().notNull(),
    retestRequired: boolean("retest_required").notNull().default(true),
    // The manual path outside the workflow, shown when the flow cannot elicit.
    setupUrl: text("setup_url"),
    createdAt: tstz("created_at").notNull().defaultNow(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("flows_workflow_profile_uq").on(t.workflow, t.profileId),
    check("flows_canary_pct_ck", sql`${t.canaryPercent} between 0 and 100`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Downstream providers and allowlisted origins (URL mode).
// ---------------------------------------------------------------------------------------------
export const providers = pgTable("providers", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  // Pinned issuer: discovery must return exactly this issuer.
  issuer: text("issuer").notNull(),
  clientId: text("client_id").notNull(),
  // Sealed with the vault key; never stored in clear.
  clientSecretSealed: bytea("client_secret_sealed"),
  scopes: text("scopes").array().notNull(),
  // The protected resource (RFC 8707) the grant is for, when the provider uses resource indicators;
  // also the base URL of the API a workflow calls with the grant.
  resource: text("resource"),
  createdAt: tstz("created_at").notNull().defaultNow(),
  disabledAt: tstz("disabled_at"),
});

export const origins = pgTable(
  "origins",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // Scheme + host + port, lower-cased ASCII (punycode) form.
    origin: text("origin").notNull(),
    // Exact redirect URIs; matched to the letter, never by prefix.
    redirectUris: text("redirect_uris").array().notNull(),
    providerId: text("provider_id").references(() => providers.id),
    note: text("note"),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    disabledAt: tstz("disabled_at"),
  },
  (t) => [uniqueIndex("origins_origin_uq").on(t.origin)],
);

// ---------------------------------------------------------------------------------------------
// Elicitation records and their transitions.
// ---------------------------------------------------------------------------------------------
export const elicitationRecords = pgTable(
  "elicitation_records",
  {
    // Opaque CSPRNG id (>= 128 bits), also the URL-mode elicitationId.
    id: text("id").primaryKey(),
    mode: elicitationMode("mode").notNull(),
    state: elicitationState("state").notNull().default("created"),
    needKind: needKind("need_kind").notNull(),
    subject: text("subject").notNull(),
    tenantId: text("tenant_id").notNull(),
    sessionId: text("session_id"),
    clientName: text("client_name").notNull(),
    clientVersion: text("client_version").notNull(),
    protocolVersion: text("protocol_version").notNull(),
    // The client's elicitation capability exactly as declared for the request that made this record
    // (2025-11-25: at initialize; 2026-07-28: in the request itself, which has no session), so the
    // gates replay what the client declared. Null: none declared (or dropped as oversized).
    declaredElicitation: jsonb("declared_elicitation").$type<DeclaredElicitationJson>(),
    requestMethod: text("request_method").notNull(),
    requestId: text("request_id").notNull(),
    toolName: text("tool_name").notNull(),
    flowId: text("flow_id").references(() => flows.id),
    purpose: text("purpose").notNull(),
    routeDecision: routeDecision("route_decision").notNull(),
    routeReason: text("route_reason").notNull(),
    schemaHash: text("schema_hash"),
    fieldNames: text("field_names")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // [{ field, keyword }] only: which field failed which rule, never the value.
    validationErrors: jsonb("validation_errors")
      .$type<ValidationIssue[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    // URL mode.
    providerId: text("provider_id").references(() => providers.id),
    targetOrigin: text("target_origin"),
    redirectUri: text("redirect_uri"),
    nonceHash: text("nonce_hash"),
    stateHash: text("state_hash"),
    pkceVerifierSealed: bytea("pkce_verifier_sealed"),
    expiresAt: tstz("expires_at"),
    // URL-mode results that arrived with content: dropped, counted here.
    droppedContentCount: integer("dropped_content_count").notNull().default(0),
    // Later calls answered with this record's outcome instead of prompting again (cool-down).
    preventedRepeats: integer("prevented_repeats").notNull().default(0),
    lateCallbackAt: tstz("late_callback_at"),
    // Gateway mode: the upstream MCP server that asked, and the JSON-RPC id of its request.
    upstreamId: text("upstream_id"),
    upstreamRequestId: text("upstream_request_id"),
    endReason: endReason("end_reason"),
    createdAt: tstz("created_at").notNull().defaultNow(),
    sentAt: tstz("sent_at"),
    respondedAt: tstz("responded_at"),
    finishedAt: tstz("finished_at"),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // Console: in-flight table filtered by state/mode/flow, keyset on (created_at, id).
    index("records_state_created_idx").on(t.state, t.createdAt, t.id),
    index("records_flow_created_idx").on(t.flowId, t.createdAt),
    index("records_created_idx").on(t.createdAt, t.id),
    index("records_client_idx").on(t.clientName, t.clientVersion, t.createdAt),
    // Engine: reconcile the same subject's earlier outcome (cool-down, idempotent resume).
    index("records_subject_tool_idx").on(t.subject, t.tenantId, t.toolName, t.createdAt),
    index("records_session_idx").on(t.sessionId),
    // The upstreams page counts each upstream's elicitations by outcome.
    index("records_upstream_idx")
      .on(t.upstreamId, t.state)
      .where(sql`upstream_id is not null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Gateway mode: upstream MCP servers whose tools this app serves (namespaced) and whose
// elicitations go through the engine. Managed by admins; every change audited (lib/gateway/).
// No secret is stored here: `auth` names the configuration variable that holds it.
// ---------------------------------------------------------------------------------------------
export const upstreams = pgTable(
  "upstreams",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    // Streamable HTTP endpoint, checked by lib/policy/url-check.ts when it is written.
    url: text("url").notNull(),
    authKind: upstreamAuthKind("auth_kind").notNull(),
    // { header, secretEnv, prefix } | { issuer, clientId, clientSecretEnv, scope } | {}: names only.
    auth: jsonb("auth").$type<UpstreamAuthSettings>().notNull(),
    tenants: text("tenants").array().notNull(),
    // Upstream tool names the gateway exposes; ["*"] exposes every tool the upstream lists.
    exposedTools: text("exposed_tools").array().notNull(),
    // HTTPS origins its URL-mode links may use (exact, lower-case ASCII).
    urlOrigins: text("url_origins").array().notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [check("upstreams_id_ck", sql`${t.id} ~ '^[a-z][a-z0-9]{1,23}$'`), index("upstreams_tenants_idx").using("gin", t.tenants)],
);

// Hourly rollup of the records, maintained by a trigger in the same transaction as every record
// write (migrations 0002 and 0010), so the overview and the metrics endpoint read a few thousand
// rows instead of scanning millions. One row per hour, flow, client, protocol revision, mode,
// state, end reason and time-to-resume bucket (RESUME_BUCKET_BOUNDS in
// lib/metrics/resume-buckets.ts; -1 when nobody responded).
export const recordRollup = pgTable(
  "record_rollup",
  {
    hour: tstz("hour").notNull(),
    // '' stands for "no flow" (the setup page), so the key can be a primary key.
    flowId: text("flow_id").notNull(),
    clientName: text("client_name").notNull(),
    clientVersion: text("client_version").notNull(),
    // The record's protocol revision (2025-11-25, 2026-07-28).
    protocolVersion: text("protocol_version").notNull().default(""),
    mode: elicitationMode("mode").notNull(),
    state: elicitationState("state").notNull(),
    // The record's end reason as text, '' for none (a primary key column cannot be null).
    endReason: text("end_reason").notNull().default(""),
    resumeBucket: integer("resume_bucket").notNull(),
    records: bigint("records", { mode: "number" }).notNull(),
    preventedRepeats: bigint("prevented_repeats", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({
      name: "record_rollup_pk",
      columns: [t.hour, t.flowId, t.clientName, t.clientVersion, t.protocolVersion, t.mode, t.state, t.endReason, t.resumeBucket],
    }),
  ],
);

export const elicitationEvents = pgTable(
  "elicitation_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    recordId: text("record_id")
      .notNull()
      .references(() => elicitationRecords.id),
    fromState: elicitationState("from_state"),
    toState: elicitationState("to_state").notNull(),
    at: tstz("at").notNull().defaultNow(),
    actorType: actorType("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    reason: text("reason"),
    // Value-free detail: field names, error keywords, counts.
    detail: jsonb("detail")
      .$type<RecordEventDetail>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [index("events_record_idx").on(t.recordId, t.at), index("events_at_idx").on(t.at)],
);

// ---------------------------------------------------------------------------------------------
// Downstream connections and the vault.
// ---------------------------------------------------------------------------------------------
export const downstreamConnections = pgTable(
  "downstream_connections",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    subject: text("subject").notNull(),
    tenantId: text("tenant_id").notNull(),
    providerId: text("provider_id")
      .notNull()
      .references(() => providers.id),
    scope: text("scope").notNull(),
    status: connectionStatus("status").notNull().default("active"),
    // The URL-mode record whose callback created this connection (completion evidence).
    recordId: text("record_id").references(() => elicitationRecords.id),
    createdAt: tstz("created_at").notNull().defaultNow(),
    revokedAt: tstz("revoked_at"),
  },
  // One downstream connection per subject, tenant and provider.
  (t) => [uniqueIndex("connections_owner_uq").on(t.subject, t.tenantId, t.providerId)],
);

export const vaultSecrets = pgTable("vault_secrets", {
  connectionId: bigint("connection_id", { mode: "number" })
    .primaryKey()
    .references(() => downstreamConnections.id),
  keyId: text("key_id").notNull(),
  // AES-256-GCM envelope: a per-secret data key wrapped by the configured key.
  wrappedDataKey: bytea("wrapped_data_key").notNull(),
  iv: bytea("iv").notNull(),
  ciphertext: bytea("ciphertext").notNull(),
  authTag: bytea("auth_tag").notNull(),
  // SHA-256 of the associated data (subject, tenant, provider, scope) for diagnostics.
  aadHash: text("aad_hash").notNull(),
  createdAt: tstz("created_at").notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// The bundled identity provider's own state (oidc-provider adapter, lib/auth/dev-idp/): sessions,
// grants (consents), interactions, registered clients, codes and device codes, so a restart or a
// second instance keeps users signed in. Value-free: many of oidc-provider's ids are the bearer
// values themselves (codes, opaque tokens), so every id and lookup key is stored only as a SHA-256
// hash, and the record (id and payload) is sealed with the vault key, bound to its row.
// ---------------------------------------------------------------------------------------------
export const idpRecords = pgTable(
  "idp_records",
  {
    namespace: text("namespace").notNull(),
    model: text("model").notNull(),
    idHash: text("id_hash").notNull(),
    sealed: bytea("sealed").notNull(),
    uidHash: text("uid_hash"),
    userCodeHash: text("user_code_hash"),
    grantIdHash: text("grant_id_hash"),
    accountHash: text("account_hash"),
    expiresAt: tstz("expires_at"),
  },
  (t) => [
    primaryKey({ columns: [t.namespace, t.model, t.idHash] }),
    index("idp_records_uid_idx").on(t.namespace, t.model, t.uidHash),
    index("idp_records_user_code_idx").on(t.namespace, t.model, t.userCodeHash),
    index("idp_records_grant_idx").on(t.namespace, t.grantIdHash),
    index("idp_records_account_idx").on(t.namespace, t.model, t.accountHash),
    index("idp_records_expires_idx").on(t.expiresAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Policy: kill switch state and history.
// ---------------------------------------------------------------------------------------------
// scope: "global" | "mode:form" | "mode:url" | "flow:<id>" (validated in lib/policy).
export const killSwitches = pgTable("kill_switches", {
  scope: text("scope").primaryKey(),
  active: boolean("active").notNull(),
  reason: text("reason").notNull(),
  changedBy: text("changed_by").notNull(),
  changedAt: tstz("changed_at").notNull().defaultNow(),
  expiresAt: tstz("expires_at"),
  // Turning a switch back off needs a second person: who asked first, pending confirmation.
  releaseRequestedBy: text("release_requested_by"),
  releaseRequestedAt: tstz("release_requested_at"),
});

export const killSwitchEvents = pgTable(
  "kill_switch_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    scope: text("scope").notNull(),
    active: boolean("active").notNull(),
    reason: text("reason").notNull(),
    actor: text("actor").notNull(),
    at: tstz("at").notNull().defaultNow(),
    expiresAt: tstz("expires_at"),
  },
  (t) => [index("kill_switch_events_scope_idx").on(t.scope, t.at)],
);

// ---------------------------------------------------------------------------------------------
// Release gates and approvals.
// ---------------------------------------------------------------------------------------------
export const gateRuns = pgTable(
  "gate_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id),
    gate: gateName("gate").notNull(),
    passed: boolean("passed").notNull(),
    fingerprint: text("fingerprint").notNull(),
    resultHash: text("result_hash").notNull(),
    ranBy: text("ran_by").notNull(),
    ranAt: tstz("ran_at").notNull().defaultNow(),
  },
  (t) => [index("gate_runs_flow_idx").on(t.flowId, t.gate, t.ranAt)],
);

// One signed JSON document per gate run (lib/gates/evidence.ts): what was driven against which
// target, every check with its outcome and timing. gate_runs.result_hash is this document's hash.
export const gateEvidence = pgTable(
  "gate_evidence",
  {
    hash: text("hash").primaryKey(),
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id),
    fingerprint: text("fingerprint").notNull(),
    target: text("target").notNull(),
    passed: boolean("passed").notNull(),
    // The canonical JSON bytes that were signed, kept verbatim so the signature stays checkable.
    document: text("document").notNull(),
    signature: text("signature").notNull(),
    keyFingerprint: text("key_fingerprint").notNull(),
    ranBy: text("ran_by").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
  },
  (t) => [index("gate_evidence_flow_idx").on(t.flowId, t.createdAt)],
);

export const approvals = pgTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    kind: approvalKind("kind").notNull(),
    state: approvalState("state").notNull().default("pending"),
    flowId: text("flow_id").references(() => flows.id),
    recordId: text("record_id").references(() => elicitationRecords.id),
    // What exactly is asked: e.g. "promote" for flows, the tool name for workflow actions.
    action: text("action").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedByType: actorType("requested_by_type").notNull(),
    tenantId: text("tenant_id"),
    reason: text("reason").notNull(),
    // The fingerprint the request was made against; an approval resets when it changes.
    fingerprint: text("fingerprint"),
    decidedBy: text("decided_by"),
    decidedAt: tstz("decided_at"),
    decisionReason: text("decision_reason"),
    createdAt: tstz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("approvals_state_idx").on(t.state, t.createdAt),
    index("approvals_flow_idx").on(t.flowId),
    index("approvals_requester_idx").on(t.requestedBy, t.action, t.state),
  ],
);

// ---------------------------------------------------------------------------------------------
// Audit log: append-only, hash-chained. UPDATE, DELETE and TRUNCATE are refused by triggers
// (see the custom migration), and the insert trigger refuses any entry that does not extend the
// current head, so concurrent writers cannot fork the chain.
// ---------------------------------------------------------------------------------------------
export const auditLog = pgTable(
  "audit_log",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    ts: tstz("ts").notNull(),
    actorType: actorType("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    // resource.verb, from lib/audit/actions.ts
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    detail: jsonb("detail").$type<AuditDetail>().notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("audit_prev_hash_uq").on(t.prevHash),
    uniqueIndex("audit_hash_uq").on(t.hash),
    index("audit_ts_idx").on(t.ts),
    index("audit_action_idx").on(t.action, t.seq),
    index("audit_actor_idx").on(t.actorId, t.seq),
    check("audit_action_ck", sql`${t.action} ~ '^[a-z_]+\\.[a-z_]+$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Abuse limits. Rate-limit counters (rate-limiter-flexible's Drizzle store: column names are its
// contract) and the coalesced counters of repeated denied page views. Keys are hashes of the
// subject or client address, never the raw values.
// ---------------------------------------------------------------------------------------------
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull().default(0),
    expire: tstz("expire"),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire)],
);

export const auditCoalesce = pgTable(
  "audit_coalesce",
  {
    key: text("key").primaryKey(),
    windowStart: tstz("window_start").notNull(),
    // Denials after the first one in the current window, not yet written to the audit log.
    repeats: integer("repeats").notNull().default(0),
    lastAt: tstz("last_at").notNull(),
    actorType: actorType("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    detail: jsonb("detail").$type<AuditDetail>().notNull(),
  },
  (t) => [
    index("audit_coalesce_pending_idx")
      .on(t.windowStart)
      .where(sql`repeats > 0`),
  ],
);
export type Tenant = typeof tenants.$inferSelect;
export type Operator = typeof operators.$inferSelect;
export type McpSession = typeof mcpSessions.$inferSelect;
export type ConsoleSession = typeof consoleSessions.$inferSelect;
export type Flow = typeof flows.$inferSelect;
export type ClientProfile = typeof clientProfiles.$inferSelect;
export type ElicitationRecord = typeof elicitationRecords.$inferSelect;
export type NewElicitationRecord = typeof elicitationRecords.$inferInsert;
export type ElicitationEvent = typeof elicitationEvents.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
export type KillSwitch = typeof killSwitches.$inferSelect;
export type Approval = typeof approvals.$inferSelect;
export type Upstream = typeof upstreams.$inferSelect;
export type GateEvidenceRow = typeof gateEvidence.$inferSelect;
