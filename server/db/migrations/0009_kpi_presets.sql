CREATE TABLE "kpi_presets" (
	"tenant_id" uuid NOT NULL,
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kpi_presets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_uuid" uuid NOT NULL,
	"module" text DEFAULT 'factory-dashboard' NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kpi_presets_module_check" CHECK ("module" IN ('factory-dashboard', 'performance-dashboard', 'public-api-dashboard'))
);
--> statement-breakpoint
ALTER TABLE "kpi_presets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "kpi_presets" ADD CONSTRAINT "kpi_presets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kpi_presets" ADD CONSTRAINT "kpi_presets_user_uuid_users_id_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kpi_presets_tenant_idx" ON "kpi_presets" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "kpi_presets_module_idx" ON "kpi_presets" USING btree ("tenant_id","module");--> statement-breakpoint
CREATE INDEX "kpi_presets_updated_at_idx" ON "kpi_presets" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kpi_presets_user_module_unique" ON "kpi_presets" USING btree ("user_uuid","module");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "kpi_presets" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());