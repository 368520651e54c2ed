CREATE TABLE "removed_consent_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
