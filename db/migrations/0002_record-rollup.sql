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
-- Every record write moves its contribution: the old rows' out (UPDATE, DELETE), the new rows' in
-- (INSERT, UPDATE), in the writer's own transaction, so the rollup is never ahead of or behind the
-- records. Statement-level with transition tables: a bulk revocation of 100,000 records makes one
-- upsert per rollup key, not 100,000 updates of the same few rows. Rows whose rollup key and
-- counts did not change cancel out. Hours are UTC whatever the session's time zone.
CREATE OR REPLACE FUNCTION record_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
    SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, mode, state,
      record_resume_bucket(sent_at, responded_at), count(*), coalesce(sum(prevented_repeats), 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (hour, flow_id, client_name, client_version, mode, state, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
    SELECT hour, flow_id, client_name, client_version, mode, state, resume_bucket, sum(n), sum(prevented)
    FROM (
      SELECT date_trunc('hour', created_at, 'UTC') AS hour, coalesce(flow_id, '') AS flow_id, client_name, client_version, mode, state,
        record_resume_bucket(sent_at, responded_at) AS resume_bucket, -1 AS n, -prevented_repeats AS prevented FROM old_rows
      UNION ALL
      SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, mode, state,
        record_resume_bucket(sent_at, responded_at), 1, prevented_repeats FROM new_rows
    ) d
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(n) <> 0 OR sum(prevented) <> 0
    ON CONFLICT (hour, flow_id, client_name, client_version, mode, state, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  ELSE
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
    SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, mode, state,
      record_resume_bucket(sent_at, responded_at), -count(*), -coalesce(sum(prevented_repeats), 0)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (hour, flow_id, client_name, client_version, mode, state, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Trigger and backfill under one lock, so no write falls between them.
LOCK TABLE elicitation_records IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- Transition tables allow one event per trigger: three triggers, one function.
CREATE TRIGGER elicitation_records_rollup_insert
  AFTER INSERT ON elicitation_records REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER elicitation_records_rollup_update
  AFTER UPDATE ON elicitation_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER elicitation_records_rollup_delete
  AFTER DELETE ON elicitation_records REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_rollup_apply();
--> statement-breakpoint
INSERT INTO record_rollup (hour, flow_id, client_name, client_version, mode, state, resume_bucket, records, prevented_repeats)
SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, mode, state,
  record_resume_bucket(sent_at, responded_at), count(*), coalesce(sum(prevented_repeats), 0)
FROM elicitation_records
GROUP BY 1, 2, 3, 4, 5, 6, 7;
