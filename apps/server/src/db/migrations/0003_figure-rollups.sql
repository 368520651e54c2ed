CREATE SEQUENCE "public"."group_figures_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "group_figures" (
	"group_id" integer PRIMARY KEY NOT NULL,
	"sales_ore" bigint DEFAULT 0 NOT NULL,
	"commission_ore" bigint DEFAULT 0 NOT NULL,
	"orders_count" integer DEFAULT 0 NOT NULL,
	"sellers_count" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT nextval('group_figures_version_seq') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "membership_figures" (
	"membership_id" integer PRIMARY KEY NOT NULL,
	"sales_ore" bigint DEFAULT 0 NOT NULL,
	"commission_ore" bigint DEFAULT 0 NOT NULL,
	"orders_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_figures" ADD CONSTRAINT "group_figures_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_figures" ADD CONSTRAINT "membership_figures_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_figures_sales_idx" ON "membership_figures" USING btree ("sales_ore" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "membership_figures_commission_idx" ON "membership_figures" USING btree ("commission_ore" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "membership_figures_orders_idx" ON "membership_figures" USING btree ("orders_count" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "order_lines_reverses_idx" ON "order_lines" USING btree ("reverses_line_id") WHERE "order_lines"."reverses_line_id" is not null;