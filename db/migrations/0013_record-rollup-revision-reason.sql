-- The rollup gains two dimensions: the record's protocol revision and its end reason ('' for none;
-- `client_disconnected` separates "the client went away" from a person's cancel). The same
-- function as migration 0002 otherwise; the grouping must match FRESH_ROLLUP in
-- lib/metrics/rollup-check.ts (tests/integration/record-rollup.test.ts reconciles them).
CREATE OR REPLACE FUNCTION record_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, records, prevented_repeats)
    SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, protocol_version, mode, state, coalesce(end_reason::text, ''),
      record_resume_bucket(sent_at, responded_at), count(*), coalesce(sum(prevented_repeats), 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, records, prevented_repeats)
    SELECT hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, sum(n), sum(prevented)
    FROM (
      SELECT date_trunc('hour', created_at, 'UTC') AS hour, coalesce(flow_id, '') AS flow_id, client_name, client_version, protocol_version, mode, state,
        coalesce(end_reason::text, '') AS end_reason, record_resume_bucket(sent_at, responded_at) AS resume_bucket, -1 AS n, -prevented_repeats AS prevented FROM old_rows
      UNION ALL
      SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, protocol_version, mode, state,
        coalesce(end_reason::text, ''), record_resume_bucket(sent_at, responded_at), 1, prevented_repeats FROM new_rows
    ) d
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    HAVING sum(n) <> 0 OR sum(prevented) <> 0
    ON CONFLICT (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  ELSE
    INSERT INTO record_rollup AS r (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, records, prevented_repeats)
    SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, protocol_version, mode, state, coalesce(end_reason::text, ''),
      record_resume_bucket(sent_at, responded_at), -count(*), -coalesce(sum(prevented_repeats), 0)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket)
    DO UPDATE SET records = r.records + EXCLUDED.records, prevented_repeats = r.prevented_repeats + EXCLUDED.prevented_repeats;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Records cancelled because their client went away before this migration carry the reason only in
-- their last event: copy it onto the record, so the rebuilt rollup counts them apart.
UPDATE elicitation_records r SET end_reason = 'client_disconnected'
WHERE r.state = 'cancelled' AND r.end_reason IS NULL
  AND (SELECT e.reason FROM elicitation_events e WHERE e.record_id = r.id ORDER BY e.id DESC LIMIT 1) = 'client_disconnected';
--> statement-breakpoint
-- Rebuild under one lock, so no write falls between the delete and the backfill.
LOCK TABLE elicitation_records IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
DELETE FROM record_rollup;
--> statement-breakpoint
INSERT INTO record_rollup (hour, flow_id, client_name, client_version, protocol_version, mode, state, end_reason, resume_bucket, records, prevented_repeats)
SELECT date_trunc('hour', created_at, 'UTC'), coalesce(flow_id, ''), client_name, client_version, protocol_version, mode, state, coalesce(end_reason::text, ''),
  record_resume_bucket(sent_at, responded_at), count(*), coalesce(sum(prevented_repeats), 0)
FROM elicitation_records
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
