CREATE TABLE "idp_records" (
	"namespace" text NOT NULL,
	"model" text NOT NULL,
	"id_hash" text NOT NULL,
	"sealed" "bytea" NOT NULL,
	"uid_hash" text,
	"user_code_hash" text,
	"grant_id_hash" text,
	"account_hash" text,
	"expires_at" timestamp with time zone,
	CONSTRAINT "idp_records_namespace_model_id_hash_pk" PRIMARY KEY("namespace","model","id_hash")
);
--> statement-breakpoint
CREATE INDEX "idp_records_uid_idx" ON "idp_records" USING btree ("namespace","model","uid_hash");--> statement-breakpoint
CREATE INDEX "idp_records_user_code_idx" ON "idp_records" USING btree ("namespace","model","user_code_hash");--> statement-breakpoint
CREATE INDEX "idp_records_grant_idx" ON "idp_records" USING btree ("namespace","grant_id_hash");--> statement-breakpoint
CREATE INDEX "idp_records_account_idx" ON "idp_records" USING btree ("namespace","model","account_hash");--> statement-breakpoint
CREATE INDEX "idp_records_expires_idx" ON "idp_records" USING btree ("expires_at");