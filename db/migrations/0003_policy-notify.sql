-- Any change to the policy tables (kill switches, flows) notifies 'policy_changed' when its
-- transaction commits, whoever made it (the console, ctl, a psql session). App instances keep the
-- policy in memory and drop it on this notification (lib/policy/policy-source.ts), so a change is
-- seen by every instance within milliseconds without a query on every decision.
CREATE OR REPLACE FUNCTION policy_changed_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('policy_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER kill_switches_policy_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kill_switches
  FOR EACH STATEMENT EXECUTE FUNCTION policy_changed_notify();
--> statement-breakpoint
CREATE TRIGGER flows_policy_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON flows
  FOR EACH STATEMENT EXECUTE FUNCTION policy_changed_notify();
