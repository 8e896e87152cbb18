-- Flows are keyed on workflow x client profile (verified OAuth client id mapped by an admin), no
-- longer on the self-declared clientInfo name. Existing flows keep their id and stage when the old
-- name slug is a valid profile id (so `generate_report:claude-code` stays meaningful once an admin
-- maps Claude Code's client id to profile `claude-code`); any other legacy flow gets an
-- unselectable `legacy-<hash>` profile and is kept only as history for its records.
UPDATE flows SET profile_id = CASE
    WHEN split_part(id, ':', 2) ~ '^[a-z0-9][a-z0-9-]{0,62}$' AND id = workflow || ':' || split_part(id, ':', 2)
      THEN split_part(id, ':', 2)
    ELSE 'legacy-' || left(md5(id), 12)
  END
  WHERE profile_id IS NULL;
--> statement-breakpoint
-- A client that called itself "unregistered" before this migration must not have pre-set the
-- stage every unmapped client now shares: those flows start over as off, for an operator to decide.
UPDATE flows SET stage = 'off', canary_percent = 0, retest_required = true, updated_at = now()
  WHERE profile_id = 'unregistered';
--> statement-breakpoint
-- Profile mappings are policy: the app's in-memory policy cache drops its snapshot on any change
-- (policy_changed_notify() is defined in 0003_policy-notify).
CREATE TRIGGER client_profiles_policy_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON client_profiles
  FOR EACH STATEMENT EXECUTE FUNCTION policy_changed_notify();
