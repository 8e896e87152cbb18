CREATE TYPE "public"."upstream_auth_kind" AS ENUM('none', 'header', 'oauth_client_credentials');--> statement-breakpoint
CREATE TABLE "upstreams" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"url" text NOT NULL,
	"auth_kind" "upstream_auth_kind" NOT NULL,
	"auth" jsonb NOT NULL,
	"tenants" text[] NOT NULL,
	"exposed_tools" text[] NOT NULL,
	"url_origins" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upstreams_id_ck" CHECK ("upstreams"."id" ~ '^[a-z][a-z0-9]{1,23}$')
);
--> statement-breakpoint
ALTER TABLE "elicitation_records" ADD COLUMN "upstream_id" text;--> statement-breakpoint
ALTER TABLE "elicitation_records" ADD COLUMN "upstream_request_id" text;--> statement-breakpoint
CREATE INDEX "upstreams_tenants_idx" ON "upstreams" USING gin ("tenants");--> statement-breakpoint
CREATE INDEX "records_upstream_idx" ON "elicitation_records" USING btree ("upstream_id","state") WHERE upstream_id is not null;