CREATE TYPE "public"."end_reason" AS ENUM('client_disconnected');--> statement-breakpoint
ALTER TABLE "record_rollup" DROP CONSTRAINT "record_rollup_hour_flow_id_client_name_client_version_mode_state_resume_bucket_pk";--> statement-breakpoint
ALTER TABLE "elicitation_records" ADD COLUMN "end_reason" "end_reason";--> statement-breakpoint
ALTER TABLE "record_rollup" ADD COLUMN "protocol_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "record_rollup" ADD COLUMN "end_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Moved after the ADD COLUMNs by hand: drizzle-kit emitted it first, before its columns existed.
ALTER TABLE "record_rollup" ADD CONSTRAINT "record_rollup_pk" PRIMARY KEY("hour","flow_id","client_name","client_version","protocol_version","mode","state","end_reason","resume_bucket");
