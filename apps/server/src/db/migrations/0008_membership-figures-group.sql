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
-- A membership that moves group takes its rollup row along. A trigger of its own, so that 0004's
-- figures_memberships_updated (the groups' counts) stays as it was written.
CREATE FUNCTION figures_membership_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE membership_figures f SET group_id = n.group_id
    FROM new_rows n
   WHERE f.membership_id = n.id AND f.group_id <> n.group_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_figures_group AFTER UPDATE ON memberships REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION figures_membership_moved();
--> statement-breakpoint
-- The two below are 0004's with group_id added to the rows they insert: a NOT NULL column leaves
-- no way to extend them but to restate them.
CREATE OR REPLACE FUNCTION figures_memberships_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO membership_figures (membership_id, group_id) SELECT n.id, n.group_id FROM new_rows n ORDER BY n.id;
  UPDATE group_figures g SET sellers_count = g.sellers_count + d.members, version = nextval('group_figures_version_seq')
    FROM (SELECT n.group_id, count(*) AS members FROM new_rows n GROUP BY n.group_id ORDER BY n.group_id) d
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
