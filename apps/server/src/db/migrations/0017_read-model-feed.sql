-- The change feed carries what the in-memory read model of the seller calls needs (issue 23,
-- decision 047, modules/read-model): every change to a row it holds is announced on
-- 'saljportalen_live' in the transaction that makes it, delivered to every listening process in
-- commit order. Figures, the hot path, carry their new values (no query to apply them); everything
-- else carries ids only, never a name, and each process reads the row again.
--
-- A group's figures: the existing announcement (0015) now carries the group's sums too.
CREATE OR REPLACE FUNCTION live_group_figures_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object(
    'k', 'f', 'g', NEW.group_id, 'v', NEW.version,
    's', NEW.sales_ore, 'c', NEW.commission_ore, 'n', NEW.orders_count)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A membership's figures, with their new values.
CREATE FUNCTION live_membership_figures_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object(
    'k', 'mf', 'm', NEW.membership_id, 'g', NEW.group_id,
    's', NEW.sales_ore, 'c', NEW.commission_ore, 'n', NEW.orders_count)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER membership_figures_live AFTER INSERT OR UPDATE OF sales_ore, commission_ore, orders_count, group_id
  ON membership_figures FOR EACH ROW EXECUTE FUNCTION live_membership_figures_changed();
--> statement-breakpoint
-- A row named by id: its kind and key are the trigger's arguments ('us' 'u' for a user, 'ms' 'm'
-- for a membership, 'gr' 'g' for a group); each process reads the row again.
CREATE FUNCTION live_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object('k', TG_ARGV[0], TG_ARGV[1], coalesce(NEW.id, OLD.id))::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A user as a seller call shows them (not their sessions: 0015's 'u' announces those).
CREATE TRIGGER users_live_insert_delete AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION live_row_changed('us', 'u');
--> statement-breakpoint
CREATE TRIGGER users_live_profile AFTER UPDATE OF email, full_name, active_group_id, guardian_consent, public_name, alias, erased_at
  ON users FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.full_name IS DISTINCT FROM NEW.full_name
        OR OLD.active_group_id IS DISTINCT FROM NEW.active_group_id OR OLD.guardian_consent IS DISTINCT FROM NEW.guardian_consent
        OR OLD.public_name IS DISTINCT FROM NEW.public_name OR OLD.alias IS DISTINCT FROM NEW.alias
        OR OLD.erased_at IS DISTINCT FROM NEW.erased_at)
  EXECUTE FUNCTION live_row_changed('us', 'u');
--> statement-breakpoint
-- A membership joined, changed (role, link, protected identity, personal goal) or left.
CREATE TRIGGER memberships_live AFTER INSERT OR UPDATE OR DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION live_row_changed('ms', 'm');
--> statement-breakpoint
-- A group created, changed (name, code, archived, leaderboard, goal) or deleted.
CREATE TRIGGER groups_live AFTER INSERT OR UPDATE OR DELETE ON groups FOR EACH ROW EXECUTE FUNCTION live_row_changed('gr', 'g');
--> statement-breakpoint
-- Whether a user is the guardian of an approved child (their dashboard offers the guardian view).
CREATE FUNCTION live_guardian_link_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.guardian_user_id IS NOT NULL THEN
    PERFORM pg_notify('saljportalen_live', json_build_object('k', 'us', 'u', OLD.guardian_user_id)::text);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.guardian_user_id IS NOT NULL THEN
    PERFORM pg_notify('saljportalen_live', json_build_object('k', 'us', 'u', NEW.guardian_user_id)::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER guardian_links_live AFTER INSERT OR UPDATE OF guardian_user_id, approved_at OR DELETE
  ON guardian_links FOR EACH ROW EXECUTE FUNCTION live_guardian_link_changed();
