CREATE TABLE "sale_mail_cursors" (
	"membership_id" integer PRIMARY KEY NOT NULL,
	"mailed_sales_ore" bigint NOT NULL,
	"mailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sale_mail_cursors" ADD CONSTRAINT "sale_mail_cursors_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;