-- Telemetry: partitioned by month (see server/db/telemetryTable.ts). Monthly partitions are made
-- on demand by ensure_telemetry_partition(); rows outside them land in the default partition.
CREATE TABLE "telemetry" (
  "tenant_id" uuid NOT NULL,
  "entity_id" integer NOT NULL,
  "key" text NOT NULL,
  "ts" timestamp with time zone NOT NULL,
  "value_num" double precision,
  "value_text" text,
  PRIMARY KEY ("entity_id", "key", "ts")
) PARTITION BY RANGE ("ts")
--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT
--> statement-breakpoint
CREATE INDEX "telemetry_ts_brin" ON "telemetry" USING brin ("ts")
--> statement-breakpoint
CREATE FUNCTION ensure_telemetry_partition(at timestamptz) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  part text := 'telemetry_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(part) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF telemetry FOR VALUES FROM (%L) TO (%L)',
      part, month_start, month_start + interval '1 month');
  END IF;
END $$
--> statement-breakpoint
-- The application queries as this non-superuser role inside a transaction that sets
-- app.tenant_id; row-level security then shows it only that tenant's rows. Roles belong to the
-- server, not the database: two databases migrated at once on one server may both find it missing.
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'terrasight_app') THEN
    CREATE ROLE terrasight_app NOLOGIN NOINHERIT;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT terrasight_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL;
END $$
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO terrasight_app
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO terrasight_app
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO terrasight_app
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO terrasight_app
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO terrasight_app
--> statement-breakpoint
CREATE FUNCTION current_tenant_id() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$
--> statement-breakpoint
ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "tenants" TO terrasight_app USING (id = current_tenant_id()) WITH CHECK (id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "users" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "entity_type_groups" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "entity_type_groups" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "entity_types" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "entity_types" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "entities" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "entities" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "groups" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "groups" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "entity_groups" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "entity_groups" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "telemetry" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "telemetry_hourly" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry_hourly" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "telemetry_daily" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry_daily" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "kpis" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "kpis" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "kpi_groups" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "kpi_groups" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "watchers" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "watchers" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "schedulers" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "schedulers" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "profiles" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "profiles" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "boards" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "boards" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "board_groups" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "board_groups" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "components" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "components" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "board_components" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "board_components" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "shares" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "shares" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "notifications" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "notifications" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "logs" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "logs" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "api_users" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "api_users" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "auth_sessions" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "auth_sessions" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ENABLE ROW LEVEL SECURITY
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "refresh_tokens" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id())
