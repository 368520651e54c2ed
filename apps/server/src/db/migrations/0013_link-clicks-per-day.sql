CREATE TABLE "link_clicks_per_day" (
	"membership_id" integer NOT NULL,
	"day" date NOT NULL,
	"clicks" integer NOT NULL,
	CONSTRAINT "link_clicks_per_day_membership_id_day_pk" PRIMARY KEY("membership_id","day")
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "payload_reduced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "link_clicks_per_day" ADD CONSTRAINT "link_clicks_per_day_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_clicks_per_day_day_idx" ON "link_clicks_per_day" USING btree ("day");--> statement-breakpoint
CREATE INDEX "webhook_events_unreduced_idx" ON "webhook_events" USING btree ("id") WHERE not "webhook_events"."payload_reduced";--> statement-breakpoint
-- Every click kept so far becomes a count on its link's Stockholm day; the per-click table, with
-- its exact times, goes (issue 22, decision 035).
INSERT INTO "link_clicks_per_day" ("membership_id", "day", "clicks")
	SELECT "membership_id", ("clicked_at" AT TIME ZONE 'Europe/Stockholm')::date, count(*)::integer
	FROM "link_clicks" GROUP BY 1, 2;--> statement-breakpoint
DROP TABLE "link_clicks";
