CREATE TABLE "telemetry_daily_zoned" (
	"tenant_id" uuid NOT NULL,
	"entity_id" integer NOT NULL,
	"key" text NOT NULL,
	"zone" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"count" bigint NOT NULL,
	"sum" double precision,
	"min" double precision,
	"max" double precision,
	"last_value" double precision,
	"last_ts" timestamp with time zone,
	CONSTRAINT "telemetry_daily_zoned_entity_id_key_zone_bucket_pk" PRIMARY KEY("entity_id","key","zone","bucket")
);
--> statement-breakpoint
CREATE TABLE "telemetry_day_zones" (
	"zone" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telemetry_daily_zoned" ADD CONSTRAINT "telemetry_daily_zoned_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_daily_zoned" ADD CONSTRAINT "telemetry_daily_zoned_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_daily_zoned" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry_daily_zoned" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
-- Maintained by the server itself (system statements), never by a tenant's.
REVOKE ALL ON "telemetry_day_zones" FROM terrasight_app;
