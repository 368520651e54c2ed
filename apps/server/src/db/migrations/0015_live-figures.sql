CREATE TABLE "event_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"session_id" text,
	"token_version" integer NOT NULL,
	"stream_ends_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_tickets_expires_idx" ON "event_tickets" USING btree ("expires_at");--> statement-breakpoint
-- The change feed of live figures (modules/live/README.md, DESIGN D12): the transaction that changes
-- figures also announces it on the channel 'saljportalen_live', delivered to every listening server
-- process when it commits (and not at all when it rolls back). Payloads are small JSON with ids and
-- amounts only, never a name: k is the kind, g the group, v the group's new figures version, p a
-- payout, m a membership, a an amount in öre, u a user.
--
-- A group's figures: every change the rollups see (orders, refunds, cancellations, assignments,
-- memberships, names) already gives group_figures a new version (0004, 0006, 0008).
CREATE FUNCTION live_group_figures_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object('k', 'f', 'g', NEW.group_id, 'v', NEW.version)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER group_figures_live AFTER INSERT OR UPDATE OF version ON group_figures
  FOR EACH ROW EXECUTE FUNCTION live_group_figures_changed();
--> statement-breakpoint
-- A payout created, or marked paid.
CREATE FUNCTION live_payout_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object('k', 'p', 'g', NEW.group_id, 'p', NEW.id)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payouts_live_insert AFTER INSERT ON payouts FOR EACH ROW EXECUTE FUNCTION live_payout_changed();
--> statement-breakpoint
CREATE TRIGGER payouts_live_update AFTER UPDATE OF status, paid_at ON payouts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.paid_at IS DISTINCT FROM NEW.paid_at)
  EXECUTE FUNCTION live_payout_changed();
--> statement-breakpoint
-- New sale lines of a seller's link, summed per membership and statement (one order's lines are one
-- statement): what the seller's toast says, 'Ny försäljning! +249 kr'. Unattributed lines have no membership.
CREATE FUNCTION live_sale_lines_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE sale record;
BEGIN
  FOR sale IN
    SELECT n.membership_id, n.group_id, sum(n.amount_ore) AS amount
      FROM new_rows n
     WHERE n.kind = 'sale' AND n.membership_id IS NOT NULL
     GROUP BY n.membership_id, n.group_id
    HAVING sum(n.amount_ore) > 0
  LOOP
    PERFORM pg_notify('saljportalen_live', json_build_object('k', 's', 'g', sale.group_id, 'm', sale.membership_id, 'a', sale.amount)::text);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_lines_live AFTER INSERT ON order_lines REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_sale_lines_inserted();
--> statement-breakpoint
-- A user's sessions ended (logout, password change, erasure) or superadmin rights changed: each
-- process checks that user's open streams again and ends those no longer allowed.
CREATE FUNCTION live_user_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('saljportalen_live', json_build_object('k', 'u', 'u', NEW.id)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_live AFTER UPDATE OF token_version, ended_sessions, is_superadmin ON users
  FOR EACH ROW WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version
                     OR OLD.ended_sessions IS DISTINCT FROM NEW.ended_sessions
                     OR OLD.is_superadmin IS DISTINCT FROM NEW.is_superadmin)
  EXECUTE FUNCTION live_user_access_changed();
