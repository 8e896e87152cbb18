DROP INDEX "flows_combo_uq";--> statement-breakpoint
ALTER TABLE "flows" ALTER COLUMN "profile_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "flows_workflow_profile_uq" ON "flows" USING btree ("workflow","profile_id");--> statement-breakpoint
ALTER TABLE "flows" DROP COLUMN "client_name";