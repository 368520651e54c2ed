-- Figure rollups (docs/decisions/007-figure-rollups.md): membership_figures and group_figures follow
-- every change to orders, memberships, groups and users' names in the same transaction, by triggers.
-- The figure rules are those of apps/server/src/modules/seller/order-sums.ts: sales and commission
-- are the orders' sums, the count leaves cancelled orders out; group figures cover the orders
-- attributed to the group. Triggers on orders and memberships run once per statement over its
-- transition tables, so a statement that writes 50 000 orders of one seller updates that seller's
-- row once, not 50 000 times.

-- What one order row adds to the figures; a removed row is given with negated amounts.
CREATE TYPE order_figures AS (membership_id integer, group_id integer, sales bigint, commission bigint, counted integer);
--> statement-breakpoint
CREATE FUNCTION figures_apply(changes order_figures[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Memberships first, then groups: a transaction writing orders takes its row locks in this order.
  UPDATE membership_figures f
     SET sales_ore = f.sales_ore + d.sales, commission_ore = f.commission_ore + d.commission, orders_count = f.orders_count + d.counted
    FROM (SELECT c.membership_id, sum(c.sales) AS sales, sum(c.commission) AS commission, sum(c.counted) AS counted
            FROM unnest(changes) c WHERE c.membership_id IS NOT NULL GROUP BY c.membership_id
          HAVING sum(c.sales) <> 0 OR sum(c.commission) <> 0 OR sum(c.counted) <> 0
           ORDER BY c.membership_id) d
   WHERE f.membership_id = d.membership_id;
  -- A group whose members' figures changed gets a new version, even when its own sums did not
  -- (an order moved from one member to another).
  UPDATE group_figures g
     SET sales_ore = g.sales_ore + d.sales, commission_ore = g.commission_ore + d.commission, orders_count = g.orders_count + d.counted,
         version = nextval('group_figures_version_seq')
    FROM (SELECT m.group_id, sum(m.sales) AS sales, sum(m.commission) AS commission, sum(m.counted) AS counted
            FROM (SELECT c.group_id, sum(c.sales) AS sales, sum(c.commission) AS commission, sum(c.counted) AS counted
                    FROM unnest(changes) c WHERE c.group_id IS NOT NULL GROUP BY c.group_id, c.membership_id
                  HAVING sum(c.sales) <> 0 OR sum(c.commission) <> 0 OR sum(c.counted) <> 0) m
           GROUP BY m.group_id ORDER BY m.group_id) d
   WHERE g.group_id = d.group_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures_apply(array(
    SELECT row(n.membership_id, n.group_id, n.subtotal_ore, n.commission_ore, (n.state <> 'cancelled')::int)::order_figures FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures_apply(array(
    SELECT row(o.membership_id, o.group_id, -o.subtotal_ore, -o.commission_ore, -(o.state <> 'cancelled')::int)::order_figures FROM old_rows o
    UNION ALL
    SELECT row(n.membership_id, n.group_id, n.subtotal_ore, n.commission_ore, (n.state <> 'cancelled')::int)::order_figures FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures_apply(array(
    SELECT row(o.membership_id, o.group_id, -o.subtotal_ore, -o.commission_ore, -(o.state <> 'cancelled')::int)::order_figures FROM old_rows o));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_figures_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_orders_inserted();
--> statement-breakpoint
CREATE TRIGGER orders_figures_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_orders_updated();
--> statement-breakpoint
CREATE TRIGGER orders_figures_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_orders_deleted();
--> statement-breakpoint
CREATE FUNCTION figures_memberships_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO membership_figures (membership_id) SELECT n.id FROM new_rows n ORDER BY n.id;
  UPDATE group_figures g SET sellers_count = g.sellers_count + d.members, version = nextval('group_figures_version_seq')
    FROM (SELECT n.group_id, count(*) AS members FROM new_rows n GROUP BY n.group_id ORDER BY n.group_id) d
   WHERE g.group_id = d.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures_memberships_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A member who changed group or user leaves one group's leaderboard and count and joins another's.
  UPDATE group_figures g SET sellers_count = g.sellers_count + d.members, version = nextval('group_figures_version_seq')
    FROM (SELECT x.group_id, sum(x.members) AS members
            FROM (SELECT o.group_id, -1 AS members FROM old_rows o JOIN new_rows n ON n.id = o.id
                   WHERE o.group_id <> n.group_id OR o.user_id <> n.user_id
                  UNION ALL
                  SELECT n.group_id, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
                   WHERE o.group_id <> n.group_id OR o.user_id <> n.user_id) x
           GROUP BY x.group_id ORDER BY x.group_id) d
   WHERE g.group_id = d.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures_memberships_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The memberships' own rows go with them (on delete cascade); their orders keep their group.
  UPDATE group_figures g SET sellers_count = g.sellers_count - d.members, version = nextval('group_figures_version_seq')
    FROM (SELECT o.group_id, count(*) AS members FROM old_rows o GROUP BY o.group_id ORDER BY o.group_id) d
   WHERE g.group_id = d.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_figures_insert AFTER INSERT ON memberships REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_memberships_inserted();
--> statement-breakpoint
CREATE TRIGGER memberships_figures_update AFTER UPDATE ON memberships REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_memberships_updated();
--> statement-breakpoint
CREATE TRIGGER memberships_figures_delete AFTER DELETE ON memberships REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_memberships_deleted();
--> statement-breakpoint
CREATE FUNCTION figures_group_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO group_figures (group_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER groups_figures AFTER INSERT ON groups FOR EACH ROW EXECUTE FUNCTION figures_group_created();
--> statement-breakpoint
CREATE FUNCTION figures_user_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE group_figures SET version = nextval('group_figures_version_seq')
   WHERE group_id IN (SELECT group_id FROM memberships WHERE user_id = NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_figures AFTER UPDATE OF full_name ON users
  FOR EACH ROW WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name) EXECUTE FUNCTION figures_user_renamed();
--> statement-breakpoint
-- Every figure from the orders themselves: run once here, and by anyone who loads data with the
-- triggers off (the benchmark's generator).
CREATE FUNCTION rebuild_figures() RETURNS void LANGUAGE sql AS $$
  DELETE FROM membership_figures;
  DELETE FROM group_figures;
  INSERT INTO group_figures (group_id, sales_ore, commission_ore, orders_count, sellers_count)
  SELECT g.id, coalesce(o.sales, 0), coalesce(o.commission, 0), coalesce(o.orders, 0), coalesce(m.sellers, 0)
    FROM groups g
    LEFT JOIN (SELECT group_id, sum(subtotal_ore) AS sales, sum(commission_ore) AS commission,
                      count(*) FILTER (WHERE state <> 'cancelled') AS orders
                 FROM orders WHERE group_id IS NOT NULL GROUP BY group_id) o ON o.group_id = g.id
    LEFT JOIN (SELECT group_id, count(*) AS sellers FROM memberships GROUP BY group_id) m ON m.group_id = g.id;
  INSERT INTO membership_figures (membership_id, sales_ore, commission_ore, orders_count)
  SELECT m.id, coalesce(o.sales, 0), coalesce(o.commission, 0), coalesce(o.orders, 0)
    FROM memberships m
    LEFT JOIN (SELECT membership_id, sum(subtotal_ore) AS sales, sum(commission_ore) AS commission,
                      count(*) FILTER (WHERE state <> 'cancelled') AS orders
                 FROM orders WHERE membership_id IS NOT NULL GROUP BY membership_id) o ON o.membership_id = m.id;
$$;
--> statement-breakpoint
SELECT rebuild_figures();
