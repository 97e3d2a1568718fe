CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_throttle_last_at_idx" ON "login_throttle" USING btree ("last_at");--> statement-breakpoint
-- Only the server's own (system) transactions read or write the counters; the tenant role never does.
REVOKE ALL ON "login_throttle" FROM terrasight_app
