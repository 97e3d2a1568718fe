CREATE TABLE "notification_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"log_id" bigint NOT NULL,
	"user_uuid" uuid NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_channel_check" CHECK (channel IN ('email', 'in_app')),
	CONSTRAINT "notification_deliveries_status_check" CHECK (status IN ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "scheduler_runs" (
	"tenant_id" uuid NOT NULL,
	"scheduler_id" integer NOT NULL,
	"occurrence_at" timestamp with time zone NOT NULL,
	"result" text NOT NULL,
	"message" text NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduler_runs_scheduler_id_occurrence_at_pk" PRIMARY KEY("scheduler_id","occurrence_at")
);
--> statement-breakpoint
ALTER TABLE "scheduler_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "watcher_states" (
	"tenant_id" uuid NOT NULL,
	"watcher_id" integer NOT NULL,
	"entity_id" integer NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"value" jsonb,
	CONSTRAINT "watcher_states_watcher_id_entity_id_pk" PRIMARY KEY("watcher_id","entity_id")
);
--> statement-breakpoint
ALTER TABLE "watcher_states" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "acknowledged_by" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "event_key" text;--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watchers" ADD COLUMN "for_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "watchers" ADD COLUMN "next_evaluation_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_log_id_logs_id_fk" FOREIGN KEY ("log_id") REFERENCES "public"."logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_user_uuid_users_id_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduler_runs" ADD CONSTRAINT "scheduler_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduler_runs" ADD CONSTRAINT "scheduler_runs_scheduler_id_schedulers_id_fk" FOREIGN KEY ("scheduler_id") REFERENCES "public"."schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_watcher_id_watchers_id_fk" FOREIGN KEY ("watcher_id") REFERENCES "public"."watchers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_log_user_channel_unique" ON "notification_deliveries" USING btree ("log_id","user_uuid","channel");--> statement-breakpoint
CREATE INDEX "notification_deliveries_tenant_idx" ON "notification_deliveries" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_user_idx" ON "notification_deliveries" USING btree ("user_uuid");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "scheduler_runs_tenant_idx" ON "scheduler_runs" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "watcher_states_tenant_idx" ON "watcher_states" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "logs_event_key_idx" ON "logs" USING btree ("tenant_id","event_key");--> statement-breakpoint
CREATE INDEX "schedulers_next_run_idx" ON "schedulers" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "watchers_next_evaluation_idx" ON "watchers" USING btree ("next_evaluation_at");--> statement-breakpoint
ALTER TABLE "watchers" ADD CONSTRAINT "watchers_for_seconds_check" CHECK ("for_seconds" >= 0 AND "for_seconds" <= 86400);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "notification_deliveries" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "scheduler_runs" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "watcher_states" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());