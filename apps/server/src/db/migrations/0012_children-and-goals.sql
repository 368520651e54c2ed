CREATE TYPE "public"."guardian_consent" AS ENUM('pending', 'approved');--> statement-breakpoint
CREATE TYPE "public"."leaderboard_mode" AS ENUM('full', 'participation', 'own_only');--> statement-breakpoint
CREATE TYPE "public"."public_name_choice" AS ENUM('first_name', 'full_name', 'alias');--> statement-breakpoint
CREATE TABLE "guardian_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "guardian_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"child_user_id" integer NOT NULL,
	"guardian_user_id" integer,
	"guardian_email" text NOT NULL,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_used_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"period" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"summary" jsonb,
	"error" text,
	CONSTRAINT "job_runs_job_period_pk" PRIMARY KEY("job","period")
);
--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "leaderboard_mode" "leaderboard_mode" DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "goal_ore" bigint;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "goal_purpose" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "goal_ends_on" date;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "protected_identity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "personal_goal_ore" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_under_13" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "guardian_consent" "guardian_consent";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_name" "public_name_choice" DEFAULT 'first_name' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alias" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sale_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_summary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_child_user_id_users_id_fk" FOREIGN KEY ("child_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_guardian_user_id_users_id_fk" FOREIGN KEY ("guardian_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_links_code_idx" ON "guardian_links" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "guardian_links_child_idx" ON "guardian_links" USING btree ("child_user_id");--> statement-breakpoint
CREATE INDEX "guardian_links_guardian_idx" ON "guardian_links" USING btree ("guardian_user_id");