CREATE TABLE "audit_coalesce" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"repeats" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"actor_type" "actor_type" NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"detail" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "audit_coalesce_pending_idx" ON "audit_coalesce" USING btree ("window_start") WHERE repeats > 0;--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "mcp_sessions_open_subject_idx" ON "mcp_sessions" USING btree ("subject","tenant_id","last_seen_at") WHERE closed_at is null;