CREATE TABLE "record_rollup" (
	"hour" timestamp with time zone NOT NULL,
	"flow_id" text NOT NULL,
	"client_name" text NOT NULL,
	"client_version" text NOT NULL,
	"mode" "elicitation_mode" NOT NULL,
	"state" "elicitation_state" NOT NULL,
	"resume_bucket" integer NOT NULL,
	"records" bigint NOT NULL,
	"prevented_repeats" bigint NOT NULL,
	CONSTRAINT "record_rollup_hour_flow_id_client_name_client_version_mode_state_resume_bucket_pk" PRIMARY KEY("hour","flow_id","client_name","client_version","mode","state","resume_bucket")
);
--> statement-breakpoint
-- Time-to-resume buckets (seconds, lower bounds; bucket k covers [bound k-1, bound k), 0 starts at
-- 0 and 19 has no upper end). -1 when nobody responded. Must match RESUME_BUCKET_BOUNDS in
-- lib/metrics/resume-buckets.ts (a test checks every bound).
CREATE OR REPLACE FUNCTION record_resume_bucket(sent timestamptz, responded timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN sent IS NULL OR responded IS NULL THEN -1
    ELSE width_bucket(extract(epoch FROM responded - sent)::float8,
      ARRAY[1, 2, 3, 5, 8, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600]::float8[]) END
$$;
--> statement-breakpoint
-- Every record write moves its contribution: the old row's out (UPDATE, DELETE), the new row's in
-- (INSERT, UPDATE), in the writer's own transaction, so the rollup is never ahead of or behind
-- the records. Hours are UTC whatever the session's time zone.
CREATE OR REPLACE FUNCTION record_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND NEW.state = OLD.state AND NEW.prevented_repeats = OLD.prevented_repeats
    AND NEW.sent_at IS NOT DISTINCT FROM OLD.sent_at AND NEW.responded_at IS NOT DISTINCT FROM OLD.responded_at
    AND NEW.created_at = OLD.created_at AND NEW.flow_id IS NOT DISTINCT FROM OLD.flow_id
    AND NEW.client_name = OLD.client_name AND NEW.client_version = OLD.client_version AND NEW.mode = OLD.mode THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE record_rollup SET records = records - 1, prevented_repeats = prevented_repeats - OLD.prevented_repeats
    WHERE hour = date_trunc('hour', OLD.created_at, 'UTC') AND flow_id = coalesce(OLD.flow_id, '')
      AND client_name = OLD.client_name AND client_version = OLD.client_version AND mode = OLD.mode
      AND state = OLD.state AND resume_bucket = record_resume_bucket(OLD.sent_at, OLD.responded_at);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
    VALUES (date_trunc('hour', NEW.created_at, 'UTC'), coalesce(NEW.flow_id, ''), NEW.client_name, NEW.client_version, NEW.mode,
      NEW.state, record_resume_bucket(NEW.sent_at, NEW.responded_at), 1, NEW.prevented_repeats)
    ON CONFLICT (hour, flow_id, client_name, client_version, mode, state, resume_bucket)
    DO UPDATE SET records = r.records + 1, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Trigger and backfill under one lock, so no write falls between them.
LOCK TABLE elicitation_records IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER elicitation_records_rollup
  AFTER INSERT OR UPDATE OR DELETE ON elicitation_records
  FOR EACH ROW EXECUTE FUNCTION record_rollup_apply();
--> statement-breakpoint
INSERT INTO record_rollup (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, mode, state,
  record_resume_bucket(sent_at, responded_at), count(*), coalesce(sum(prevented_repeats), 0)
FROM elicitation_records
GROUP BY 1, 2, 3, 4, 5, 6, 7;
