-- An order keeps Shopify's payload by pointing at the webhook event that carried it, instead of a
-- jsonb copy of the same 8 KB: parsing and compressing that copy was a third of the database's
-- work per webhook (bench/RESULTS.md). Existing orders point at their latest order event.
ALTER TABLE "orders" ADD COLUMN "source_event_id" bigint;
--> statement-breakpoint
UPDATE "orders" o SET "source_event_id" = e.id
  FROM (SELECT DISTINCT ON (shopify_order_id) id, shopify_order_id FROM "webhook_events"
         WHERE shopify_order_id IS NOT NULL AND topic LIKE 'orders/%' AND processed_at IS NOT NULL
         ORDER BY shopify_order_id, id DESC) e
 WHERE e.shopify_order_id = o.shopify_order_id;
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "raw";
