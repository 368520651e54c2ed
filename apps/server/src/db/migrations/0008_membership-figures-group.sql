-- Each membership's rollup row carries its group (copied by the triggers; a membership that moves
-- group takes its row along), so one group's sellers by any figure are read from an index on
-- (group_id, figure) instead of joining every member of the group and sorting them: the admin's
-- group detail of a 500-seller group read 1 000 rows for a page of 50 (bench/RESULTS.md).
ALTER TABLE "membership_figures" ADD COLUMN "group_id" integer;
--> statement-breakpoint
UPDATE "membership_figures" f SET "group_id" = m.group_id FROM "memberships" m WHERE m.id = f.membership_id;
--> statement-breakpoint
ALTER TABLE "membership_figures" ALTER COLUMN "group_id" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "membership_figures_group_sales_idx" ON "membership_figures" USING btree ("group_id","sales_ore" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "membership_figures_group_commission_idx" ON "membership_figures" USING btree ("group_id","commission_ore" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "membership_figures_group_orders_idx" ON "membership_figures" USING btree ("group_id","orders_count" DESC NULLS LAST);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures_memberships_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO membership_figures (membership_id, group_id) SELECT n.id, n.group_id FROM new_rows n ORDER BY n.id;
  UPDATE group_figures g SET sellers_count = g.sellers_count + d.members, version = nextval('group_figures_version_seq')
    FROM (SELECT n.group_id, count(*) AS members FROM new_rows n GROUP BY n.group_id ORDER BY n.group_id) d
   WHERE g.group_id = d.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures_memberships_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE membership_figures f SET group_id = n.group_id
    FROM new_rows n
   WHERE f.membership_id = n.id AND f.group_id <> n.group_id;
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
CREATE OR REPLACE FUNCTION rebuild_figures() RETURNS void LANGUAGE sql AS $$
  DELETE FROM membership_figures;
  DELETE FROM group_figures;
  INSERT INTO group_figures (group_id, sales_ore, commission_ore, orders_count, sellers_count)
  SELECT g.id, coalesce(o.sales, 0), coalesce(o.commission, 0), coalesce(o.orders, 0), coalesce(m.sellers, 0)
    FROM groups g
    LEFT JOIN (SELECT group_id, sum(subtotal_ore) AS sales, sum(commission_ore) AS commission,
                      count(*) FILTER (WHERE state <> 'cancelled') AS orders
                 FROM orders WHERE group_id IS NOT NULL GROUP BY group_id) o ON o.group_id = g.id
    LEFT JOIN (SELECT group_id, count(*) AS sellers FROM memberships GROUP BY group_id) m ON m.group_id = g.id;
  INSERT INTO membership_figures (membership_id, group_id, sales_ore, commission_ore, orders_count)
  SELECT m.id, m.group_id, coalesce(o.sales, 0), coalesce(o.commission, 0), coalesce(o.orders, 0)
    FROM memberships m
    LEFT JOIN (SELECT membership_id, sum(subtotal_ore) AS sales, sum(commission_ore) AS commission,
                      count(*) FILTER (WHERE state <> 'cancelled') AS orders
                 FROM orders WHERE membership_id IS NOT NULL GROUP BY membership_id) o ON o.membership_id = m.id;
$$;
