ALTER TABLE "order_lines" ADD COLUMN "reverses_line_id" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shopify_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "shopify_order_id" bigint;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_reverses_line_id_order_lines_id_fk" FOREIGN KEY ("reverses_line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_shopify_order_idx" ON "webhook_events" USING btree ("shopify_order_id") WHERE "webhook_events"."shopify_order_id" is not null;