CREATE TYPE "public"."payout_account_kind" AS ENUM('bankgiro', 'plusgiro', 'bank');--> statement-breakpoint
CREATE TABLE "group_payout_accounts" (
	"group_id" integer PRIMARY KEY NOT NULL,
	"kind" "payout_account_kind" NOT NULL,
	"clearing_number" text,
	"account_number" text NOT NULL,
	"holder_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_payout_accounts_clearing" CHECK (("group_payout_accounts"."kind" = 'bank') = ("group_payout_accounts"."clearing_number" is not null))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "paid_to_account" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "paid_to_holder" text;--> statement-breakpoint
ALTER TABLE "group_payout_accounts" ADD CONSTRAINT "group_payout_accounts_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;