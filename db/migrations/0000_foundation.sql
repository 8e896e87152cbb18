CREATE TYPE "public"."actor_type" AS ENUM('operator', 'system', 'subject');--> statement-breakpoint
CREATE TYPE "public"."approval_kind" AS ENUM('promotion', 'workflow_action');--> statement-breakpoint
CREATE TYPE "public"."approval_state" AS ENUM('pending', 'approved', 'rejected', 'consumed', 'superseded', 'expired');--> statement-breakpoint
CREATE TYPE "public"."connection_status" AS ENUM('active', 'revoked');--> statement-breakpoint
CREATE TYPE "public"."elicitation_mode" AS ENUM('form', 'url');--> statement-breakpoint
CREATE TYPE "public"."elicitation_state" AS ENUM('created', 'not_sent', 'sent', 'accepted', 'opened', 'completed', 'validation_failed', 'declined', 'cancelled', 'timed_out', 'failed', 'revoked', 'expired');--> statement-breakpoint
CREATE TYPE "public"."flow_stage" AS ENUM('off', 'canary', 'promoted', 'rolled_back');--> statement-breakpoint
CREATE TYPE "public"."gate_name" AS ENUM('contract', 'privacy', 'phishing', 'recovery', 'accessibility');--> statement-breakpoint
CREATE TYPE "public"."need_kind" AS ENUM('field', 'credential', 'payment', 'grant', 'approval', 'authoritative');--> statement-breakpoint
CREATE TYPE "public"."operator_role" AS ENUM('admin', 'operator', 'releaser', 'approver', 'auditor', 'viewer');--> statement-breakpoint
CREATE TYPE "public"."route_decision" AS ENUM('form', 'url', 'fallback', 'blocked');--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" "approval_kind" NOT NULL,
	"state" "approval_state" DEFAULT 'pending' NOT NULL,
	"flow_id" text,
	"record_id" text,
	"action" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_type" "actor_type" NOT NULL,
	"tenant_id" text,
	"reason" text NOT NULL,
	"fingerprint" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"actor_type" "actor_type" NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"detail" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_action_ck" CHECK ("audit_log"."action" ~ '^[a-z_]+\.[a-z_]+$')
);
--> statement-breakpoint
CREATE TABLE "downstream_connections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"tenant_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"scope" text NOT NULL,
	"status" "connection_status" DEFAULT 'active' NOT NULL,
	"record_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "elicitation_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"record_id" text NOT NULL,
	"from_state" "elicitation_state",
	"to_state" "elicitation_state" NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" "actor_type" NOT NULL,
	"actor_id" text NOT NULL,
	"reason" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "elicitation_records" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" "elicitation_mode" NOT NULL,
	"state" "elicitation_state" DEFAULT 'created' NOT NULL,
	"need_kind" "need_kind" NOT NULL,
	"subject" text NOT NULL,
	"tenant_id" text NOT NULL,
	"session_id" text,
	"client_name" text NOT NULL,
	"client_version" text NOT NULL,
	"protocol_version" text NOT NULL,
	"request_method" text NOT NULL,
	"request_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"flow_id" text,
	"purpose" text NOT NULL,
	"route_decision" "route_decision" NOT NULL,
	"route_reason" text NOT NULL,
	"schema_hash" text,
	"field_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"validation_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_id" text,
	"target_origin" text,
	"redirect_uri" text,
	"nonce_hash" text,
	"state_hash" text,
	"pkce_verifier_sealed" "bytea",
	"expires_at" timestamp with time zone,
	"dropped_content_count" integer DEFAULT 0 NOT NULL,
	"prevented_repeats" integer DEFAULT 0 NOT NULL,
	"late_callback_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"responded_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow" text NOT NULL,
	"client_name" text NOT NULL,
	"server_version" text NOT NULL,
	"stage" "flow_stage" DEFAULT 'off' NOT NULL,
	"canary_percent" integer DEFAULT 0 NOT NULL,
	"fingerprint" text NOT NULL,
	"fingerprint_inputs" jsonb NOT NULL,
	"retest_required" boolean DEFAULT true NOT NULL,
	"setup_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flows_canary_pct_ck" CHECK ("flows"."canary_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "gate_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"flow_id" text NOT NULL,
	"gate" "gate_name" NOT NULL,
	"passed" boolean NOT NULL,
	"fingerprint" text NOT NULL,
	"result_hash" text NOT NULL,
	"ran_by" text NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kill_switch_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"active" boolean NOT NULL,
	"reason" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kill_switches" (
	"scope" text PRIMARY KEY NOT NULL,
	"active" boolean NOT NULL,
	"reason" text NOT NULL,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"release_requested_by" text,
	"release_requested_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mcp_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"tenant_id" text NOT NULL,
	"client_name" text NOT NULL,
	"client_version" text NOT NULL,
	"protocol_version" text NOT NULL,
	"capabilities" jsonb NOT NULL,
	"form_declared" boolean NOT NULL,
	"url_declared" boolean NOT NULL,
	"instance_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"subject" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"roles" "operator_role"[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "origins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"provider_id" text,
	"note" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" "bytea",
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"default_region" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_secrets" (
	"connection_id" bigint PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"wrapped_data_key" "bytea" NOT NULL,
	"iv" "bytea" NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	"auth_tag" "bytea" NOT NULL,
	"aad_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_record_id_elicitation_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."elicitation_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downstream_connections" ADD CONSTRAINT "downstream_connections_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downstream_connections" ADD CONSTRAINT "downstream_connections_record_id_elicitation_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."elicitation_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitation_events" ADD CONSTRAINT "elicitation_events_record_id_elicitation_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."elicitation_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitation_records" ADD CONSTRAINT "elicitation_records_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitation_records" ADD CONSTRAINT "elicitation_records_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_runs" ADD CONSTRAINT "gate_runs_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "origins" ADD CONSTRAINT "origins_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_connection_id_downstream_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."downstream_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_state_idx" ON "approvals" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "approvals_flow_idx" ON "approvals" USING btree ("flow_id");--> statement-breakpoint
CREATE INDEX "approvals_requester_idx" ON "approvals" USING btree ("requested_by","action","state");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_prev_hash_uq" ON "audit_log" USING btree ("prev_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_hash_uq" ON "audit_log" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "audit_ts_idx" ON "audit_log" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit_log" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_actor_idx" ON "audit_log" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_owner_uq" ON "downstream_connections" USING btree ("subject","tenant_id","provider_id");--> statement-breakpoint
CREATE INDEX "events_record_idx" ON "elicitation_events" USING btree ("record_id","at");--> statement-breakpoint
CREATE INDEX "events_at_idx" ON "elicitation_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "records_state_created_idx" ON "elicitation_records" USING btree ("state","created_at","id");--> statement-breakpoint
CREATE INDEX "records_flow_created_idx" ON "elicitation_records" USING btree ("flow_id","created_at");--> statement-breakpoint
CREATE INDEX "records_created_idx" ON "elicitation_records" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "records_client_idx" ON "elicitation_records" USING btree ("client_name","client_version","created_at");--> statement-breakpoint
CREATE INDEX "records_subject_tool_idx" ON "elicitation_records" USING btree ("subject","tenant_id","tool_name","created_at");--> statement-breakpoint
CREATE INDEX "records_session_idx" ON "elicitation_records" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flows_combo_uq" ON "flows" USING btree ("workflow","client_name");--> statement-breakpoint
CREATE INDEX "gate_runs_flow_idx" ON "gate_runs" USING btree ("flow_id","gate","ran_at");--> statement-breakpoint
CREATE INDEX "kill_switch_events_scope_idx" ON "kill_switch_events" USING btree ("scope","at");--> statement-breakpoint
CREATE INDEX "mcp_sessions_client_idx" ON "mcp_sessions" USING btree ("client_name","client_version");--> statement-breakpoint
CREATE INDEX "mcp_sessions_created_idx" ON "mcp_sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "operators_roles_idx" ON "operators" USING gin ("roles");--> statement-breakpoint
CREATE UNIQUE INDEX "origins_origin_uq" ON "origins" USING btree ("origin");