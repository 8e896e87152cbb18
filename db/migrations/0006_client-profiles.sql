CREATE TABLE "client_profiles" (
	"client_id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"display_name" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "client_profiles_profile_ck" CHECK ("client_profiles"."profile_id" ~ '^[a-z0-9][a-z0-9-]{0,62}$')
);
--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "profile_id" text;--> statement-breakpoint
CREATE INDEX "client_profiles_profile_idx" ON "client_profiles" USING btree ("profile_id");