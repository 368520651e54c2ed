-- The figure triggers of 0004 (decision 007), cheaper for the statements that write one order:
-- the statement's changes are summed per (membership, group) and each sum applied with two plain
-- key updates. Aggregating an array of changes per statement cost a webhook transaction three
-- times what these updates do (bench/RESULTS.md); a bulk statement still updates each rollup row
-- once per (membership, group), not once per order.

-- Adds one (membership, group) pair's change to both rollups; a group whose members' figures
-- changed gets a new version. Memberships first, then groups: the order every writer locks in.
CREATE FUNCTION figures_add(member integer, grp integer, sales bigint, commission bigint, counted bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF member IS NOT NULL THEN
    UPDATE membership_figures
       SET sales_ore = sales_ore + sales, commission_ore = commission_ore + commission, orders_count = orders_count + counted
     WHERE membership_id = member;
  END IF;
  IF grp IS NOT NULL THEN
    UPDATE group_figures
       SET sales_ore = sales_ore + sales, commission_ore = commission_ore + commission, orders_count = orders_count + counted,
           version = nextval('group_figures_version_seq')
     WHERE group_id = grp;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE pair record;
BEGIN
  FOR pair IN
    SELECT n.membership_id, n.group_id, sum(n.subtotal_ore) AS sales, sum(n.commission_ore) AS commission,
           sum((n.state <> 'cancelled')::int) AS counted
      FROM new_rows n GROUP BY n.membership_id, n.group_id
    HAVING sum(n.subtotal_ore) <> 0 OR sum(n.commission_ore) <> 0 OR sum((n.state <> 'cancelled')::int) <> 0
     ORDER BY n.membership_id, n.group_id
  LOOP
    PERFORM figures_add(pair.membership_id, pair.group_id, pair.sales::bigint, pair.commission::bigint, pair.counted::bigint);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE pair record;
BEGIN
  -- An order moved from one member to another is two pairs: taken from the first, added to the second.
  FOR pair IN
    SELECT c.membership_id, c.group_id, sum(c.sales) AS sales, sum(c.commission) AS commission, sum(c.counted) AS counted
      FROM (SELECT n.membership_id, n.group_id, n.subtotal_ore AS sales, n.commission_ore AS commission,
                   (n.state <> 'cancelled')::int AS counted
              FROM new_rows n
            UNION ALL
            SELECT o.membership_id, o.group_id, -o.subtotal_ore, -o.commission_ore, -(o.state <> 'cancelled')::int
              FROM old_rows o) c
     GROUP BY c.membership_id, c.group_id
    HAVING sum(c.sales) <> 0 OR sum(c.commission) <> 0 OR sum(c.counted) <> 0
     ORDER BY c.membership_id, c.group_id
  LOOP
    PERFORM figures_add(pair.membership_id, pair.group_id, pair.sales::bigint, pair.commission::bigint, pair.counted::bigint);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE pair record;
BEGIN
  FOR pair IN
    SELECT o.membership_id, o.group_id, -sum(o.subtotal_ore) AS sales, -sum(o.commission_ore) AS commission,
           -sum((o.state <> 'cancelled')::int) AS counted
      FROM old_rows o GROUP BY o.membership_id, o.group_id
    HAVING sum(o.subtotal_ore) <> 0 OR sum(o.commission_ore) <> 0 OR sum((o.state <> 'cancelled')::int) <> 0
     ORDER BY o.membership_id, o.group_id
  LOOP
    PERFORM figures_add(pair.membership_id, pair.group_id, pair.sales::bigint, pair.commission::bigint, pair.counted::bigint);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION figures_apply(order_figures[]);
--> statement-breakpoint
DROP TYPE order_figures;
