-- The models' tables as their schemas derive them (server/db/modelTables.ts): checks of the
-- written fields, indexes of filtered and sorted columns, link-table indexes, schema defaults.
-- The tenant-isolation policies, written by hand in 0001, 0005-0007 until now, are declared in
-- server/db/schema.ts from here on: each is dropped and created again from the declaration.
ALTER TABLE "api_users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "auth_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "board_components" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "board_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "boards" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "components" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entity_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entity_images" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entity_type_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entity_types" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "kpi_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "kpis" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "logs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "notifications" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "profiles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "schedulers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "shares" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "telemetry_daily_zoned" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "telemetry_hourly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "telemetry_latest" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "telemetry_quarter_hourly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "watchers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP INDEX "logs_tenant_ts_idx";--> statement-breakpoint
ALTER TABLE "board_components" DROP CONSTRAINT "board_components_board_id_component_id_pk";--> statement-breakpoint
ALTER TABLE "components" ALTER COLUMN "layout" SET DEFAULT '{"x":0,"y":0,"w":12,"h":8}'::jsonb;--> statement-breakpoint
ALTER TABLE "entities" ALTER COLUMN "level" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "entities" ALTER COLUMN "is_gateway" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "active" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "channels" SET DEFAULT '{"email"}'::text[];--> statement-breakpoint
ALTER TABLE "profiles" ALTER COLUMN "type" SET DEFAULT 'dimming_profile';--> statement-breakpoint
ALTER TABLE "shares" ALTER COLUMN "scope" SET DEFAULT 'view';--> statement-breakpoint
ALTER TABLE "shares" ALTER COLUMN "granted" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "watchers" ALTER COLUMN "interval" SET DEFAULT 60;--> statement-breakpoint
ALTER TABLE "watchers" ALTER COLUMN "alert" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "board_components" ADD CONSTRAINT "board_components_component_id_board_id_pk" PRIMARY KEY("component_id","board_id");--> statement-breakpoint
CREATE INDEX "board_components_board_idx" ON "board_components" USING btree ("board_id");--> statement-breakpoint
CREATE INDEX "board_groups_group_idx" ON "board_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "boards_created_at_idx" ON "boards" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "components_type_idx" ON "components" USING btree ("tenant_id","type");--> statement-breakpoint
CREATE INDEX "entities_entity_type_id_idx" ON "entities" USING btree ("tenant_id","entity_type_id");--> statement-breakpoint
CREATE INDEX "kpi_groups_group_idx" ON "kpi_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "kpis_category_idx" ON "kpis" USING btree ("tenant_id","category");--> statement-breakpoint
CREATE INDEX "kpis_module_idx" ON "kpis" USING btree ("tenant_id","module");--> statement-breakpoint
CREATE INDEX "kpis_updated_at_idx" ON "kpis" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "logs_tenant_idx" ON "logs" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "logs_timestamp_idx" ON "logs" USING btree ("tenant_id","timestamp");--> statement-breakpoint
CREATE INDEX "logs_type_idx" ON "logs" USING btree ("tenant_id","type");--> statement-breakpoint
CREATE INDEX "logs_status_idx" ON "logs" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "logs_source_idx" ON "logs" USING btree ("tenant_id","source");--> statement-breakpoint
CREATE INDEX "profiles_name_idx" ON "profiles" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "profiles_type_idx" ON "profiles" USING btree ("tenant_id","type");--> statement-breakpoint
CREATE INDEX "profiles_created_at_idx" ON "profiles" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "profiles_updated_at_idx" ON "profiles" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "schedulers_name_idx" ON "schedulers" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "schedulers_status_idx" ON "schedulers" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "schedulers_next_run_at_idx" ON "schedulers" USING btree ("tenant_id","next_run_at");--> statement-breakpoint
CREATE INDEX "schedulers_updated_at_idx" ON "schedulers" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "watchers_name_idx" ON "watchers" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "watchers_interval_idx" ON "watchers" USING btree ("tenant_id","interval");--> statement-breakpoint
CREATE INDEX "watchers_status_idx" ON "watchers" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "watchers_alert_idx" ON "watchers" USING btree ("tenant_id","alert");--> statement-breakpoint
CREATE INDEX "watchers_triggered_at_idx" ON "watchers" USING btree ("tenant_id","triggered_at");--> statement-breakpoint
CREATE INDEX "watchers_updated_at_idx" ON "watchers" USING btree ("tenant_id","updated_at");--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_name_check" CHECK (char_length("name") <= 200);--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_type_check" CHECK ("type" IN ('iframe', 'image', 'kpi', 'richtext', 'video'));--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_description_check" CHECK (char_length("description") <= 10000);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_entity_type_id_check" CHECK ("entity_type_id" >= 1 AND "entity_type_id" <= 2147483647);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_parent_id_check" CHECK ("parent_id" >= 1 AND "parent_id" <= 2147483647);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_level_check" CHECK ("level" >= -1000 AND "level" <= 1000);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_thingsboard_name_check" CHECK (char_length("thingsboard_name") <= 200);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_fk_gateway_id_check" CHECK ("fk_gateway_id" >= 1 AND "fk_gateway_id" <= 2147483647);--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_access_token_check" CHECK (char_length("access_token") <= 128);--> statement-breakpoint
ALTER TABLE "kpis" ADD CONSTRAINT "kpis_category_check" CHECK (char_length("category") <= 100);--> statement-breakpoint
ALTER TABLE "kpis" ADD CONSTRAINT "kpis_module_check" CHECK ("module" IN ('factory-dashboard', 'factory-studio', 'performance-dashboard', 'public-api-dashboard', 'logs'));--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_status_check" CHECK ("status" IN ('new', 'seen', 'done'));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_name_check" CHECK (char_length("name") <= 200);--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_type_check" CHECK ("type" IN ('dimming_profile', 'switching_profile'));--> statement-breakpoint
ALTER TABLE "schedulers" ADD CONSTRAINT "schedulers_name_check" CHECK (char_length("name") <= 200);--> statement-breakpoint
ALTER TABLE "schedulers" ADD CONSTRAINT "schedulers_status_check" CHECK ("status" IN ('active', 'inactive'));--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_scope_check" CHECK ("scope" IN ('view', 'edit'));--> statement-breakpoint
ALTER TABLE "watchers" ADD CONSTRAINT "watchers_name_check" CHECK (char_length("name") <= 200);--> statement-breakpoint
ALTER TABLE "watchers" ADD CONSTRAINT "watchers_interval_check" CHECK ("interval" >= 10 AND "interval" <= 86400);--> statement-breakpoint
ALTER TABLE "watchers" ADD CONSTRAINT "watchers_status_check" CHECK ("status" IN ('active', 'inactive'));--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "api_users";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "api_users" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "auth_sessions";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "auth_sessions" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "board_components";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "board_components" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "board_groups";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "board_groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "boards";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "boards" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "components";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "components" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "entities";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entities" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "entity_groups";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entity_groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "entity_images";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entity_images" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "entity_type_groups";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entity_type_groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "entity_types";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entity_types" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "groups";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "kpi_groups";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "kpi_groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "kpis";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "kpis" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "logs";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "logs" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "notifications";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "notifications" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "profiles";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "profiles" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "refresh_tokens";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "refresh_tokens" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "schedulers";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "schedulers" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "shares";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "shares" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "telemetry_daily";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "telemetry_daily" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "telemetry_daily_zoned";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "telemetry_daily_zoned" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "telemetry_hourly";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "telemetry_hourly" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "telemetry_latest";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "telemetry_latest" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "telemetry_quarter_hourly";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "telemetry_quarter_hourly" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "tenants";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tenants" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (id = current_tenant_id()) WITH CHECK (id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "users";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "users" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
DROP POLICY IF EXISTS "tenant_isolation" ON "watchers";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "watchers" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());