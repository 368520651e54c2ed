-- The class link's code (issue 32, decision 073): eight characters of the alphabet that reads aloud
-- without doubt (lib/random-codes.ts), drawn per row, so existing groups get one here and every
-- later insert gets one by the column's default.
CREATE FUNCTION random_class_link_code() RETURNS text LANGUAGE sql VOLATILE AS $$
  select string_agg(substr('23456789ABCDEFGHJKMNPQRSTWXYZ', 1 + floor(random() * 29)::int, 1), '') from generate_series(1, 8)
$$;--> statement-breakpoint
CREATE TABLE "retired_link_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_unattributed_idx";--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "class_link_code" text DEFAULT random_class_link_code() NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "class_greeting" text;--> statement-breakpoint
CREATE UNIQUE INDEX "groups_class_link_code_idx" ON "groups" USING btree ("class_link_code");--> statement-breakpoint
CREATE INDEX "orders_unattributed_idx" ON "orders" USING btree ("ordered_at") WHERE "orders"."group_id" is null;