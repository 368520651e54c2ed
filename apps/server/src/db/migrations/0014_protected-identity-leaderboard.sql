-- A pupil marked (or unmarked) as having protected personal data leaves (or rejoins) the group's
-- leaderboard: renew the group's figures version in the same transaction, so that no process
-- serves a cached leaderboard that still lists them (modules/dashboard/leaderboard-cache.ts).
CREATE FUNCTION figures_membership_protected() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE group_figures SET version = nextval('group_figures_version_seq') WHERE group_id = NEW.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_protected_identity AFTER UPDATE OF protected_identity ON memberships
  FOR EACH ROW WHEN (OLD.protected_identity IS DISTINCT FROM NEW.protected_identity) EXECUTE FUNCTION figures_membership_protected();
