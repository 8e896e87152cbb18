-- The audit log is append-only and hash-chained. These rules live in the database itself so that
-- no code path (a bug, a console action, a psql session with the app's role) can rewrite history.

-- 1. UPDATE, DELETE and TRUNCATE are refused outright.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
-- 2. An insert must extend the current head: seq is the previous seq + 1 and prev_hash is the
--    previous entry's hash (the genesis entry links to 64 zeros). Together with the unique index
--    on prev_hash this makes a fork impossible even if a writer skipped the application lock.
CREATE OR REPLACE FUNCTION audit_log_check_link() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  expected text;
BEGIN
  IF NEW.seq = 1 THEN
    expected := repeat('0', 64);
  ELSE
    SELECT hash INTO expected FROM audit_log WHERE seq = NEW.seq - 1;
  END IF;
  IF expected IS NULL OR expected <> NEW.prev_hash THEN
    RAISE EXCEPTION 'audit_log entry % does not extend the chain head', NEW.seq
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_link
  BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_check_link();
