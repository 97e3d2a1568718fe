-- Maintenance windows (src/schemas/maintenanceWindow.ts), and the watch whose problem began under
-- notify-off maintenance (its recovery is not sent either).
CREATE TABLE "maintenance_windows" (
	"tenant_id" uuid NOT NULL,
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_windows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"mode" text DEFAULT 'notify-off' NOT NULL,
	"scope" text DEFAULT 'tenant' NOT NULL,
	"region_id" integer,
	"group_id" integer,
	"schedule" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"current_start" timestamp with time zone,
	"current_end" timestamp with time zone,
	"last_updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"start_logged" boolean DEFAULT false NOT NULL,
	CONSTRAINT "maintenance_windows_name_check" CHECK (char_length("name") <= 200),
	CONSTRAINT "maintenance_windows_mode_check" CHECK ("mode" IN ('notify-off', 'read-only', 'device-maintenance')),
	CONSTRAINT "maintenance_windows_scope_check" CHECK ("scope" IN ('tenant', 'region', 'group')),
	CONSTRAINT "maintenance_windows_region_id_check" CHECK ("region_id" >= 1 AND "region_id" <= 2147483647),
	CONSTRAINT "maintenance_windows_group_id_check" CHECK ("group_id" >= 1 AND "group_id" <= 2147483647)
);
--> statement-breakpoint
ALTER TABLE "maintenance_windows" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "watcher_states" ADD COLUMN "muted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_region_id_entities_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_windows_tenant_idx" ON "maintenance_windows" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "maintenance_windows_name_idx" ON "maintenance_windows" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "maintenance_windows_mode_idx" ON "maintenance_windows" USING btree ("tenant_id","mode");--> statement-breakpoint
CREATE INDEX "maintenance_windows_scope_idx" ON "maintenance_windows" USING btree ("tenant_id","scope");--> statement-breakpoint
CREATE INDEX "maintenance_windows_current_start_idx" ON "maintenance_windows" USING btree ("tenant_id","current_start");--> statement-breakpoint
CREATE INDEX "maintenance_windows_updated_at_idx" ON "maintenance_windows" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "maintenance_windows_current_end_idx" ON "maintenance_windows" USING btree ("current_end");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "maintenance_windows" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());