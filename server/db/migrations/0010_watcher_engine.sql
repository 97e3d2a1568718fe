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
ALTER TABLE "logs" ADD COLUMN "event_key" text;--> statement-breakpoint
ALTER TABLE "watchers" ADD COLUMN "for_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "watchers" ADD COLUMN "next_evaluation_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_watcher_id_watchers_id_fk" FOREIGN KEY ("watcher_id") REFERENCES "public"."watchers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD CONSTRAINT "watcher_states_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watcher_states_tenant_idx" ON "watcher_states" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "logs_event_key_idx" ON "logs" USING btree ("tenant_id","event_key");--> statement-breakpoint
CREATE INDEX "watchers_next_evaluation_idx" ON "watchers" USING btree ("next_evaluation_at");--> statement-breakpoint
ALTER TABLE "watchers" ADD CONSTRAINT "watchers_for_seconds_check" CHECK ("for_seconds" >= 0 AND "for_seconds" <= 86400);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "watcher_states" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());