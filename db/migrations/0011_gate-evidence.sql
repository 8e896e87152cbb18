CREATE TABLE "gate_evidence" (
	"hash" text PRIMARY KEY NOT NULL,
	"flow_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"target" text NOT NULL,
	"passed" boolean NOT NULL,
	"document" text NOT NULL,
	"signature" text NOT NULL,
	"key_fingerprint" text NOT NULL,
	"ran_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gate_evidence" ADD CONSTRAINT "gate_evidence_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_evidence_flow_idx" ON "gate_evidence" USING btree ("flow_id","created_at");