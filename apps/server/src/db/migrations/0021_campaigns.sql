ALTER TABLE "groups" ADD COLUMN "campaign_starts_on" date;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "campaign_ends_on" date;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "campaign_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "closing_message" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "closing_message_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "cloned_from_group_id" integer;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "archive_when_settled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_cloned_from_group_id_groups_id_fk" FOREIGN KEY ("cloned_from_group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "groups_campaign_open_idx" ON "groups" USING btree ("campaign_ends_on") WHERE "groups"."campaign_closed_at" is null and "groups"."campaign_ends_on" is not null;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_campaign_both" CHECK (("groups"."campaign_starts_on" is null) = ("groups"."campaign_ends_on" is null));--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_campaign_order" CHECK ("groups"."campaign_ends_on" >= "groups"."campaign_starts_on");