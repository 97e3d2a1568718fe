ALTER TABLE "schedulers" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "last_failure" text;