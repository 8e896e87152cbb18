CREATE TABLE "console_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"end_reason" text
);
--> statement-breakpoint
CREATE INDEX "console_sessions_subject_idx" ON "console_sessions" USING btree ("subject","ended_at");