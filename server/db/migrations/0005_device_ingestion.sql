CREATE TABLE "telemetry_latest" (
	"tenant_id" uuid NOT NULL,
	"entity_id" integer NOT NULL,
	"key" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value_num" double precision,
	"value_text" text,
	"value_bool" boolean,
	"value_json" jsonb,
	CONSTRAINT "telemetry_latest_entity_id_key_pk" PRIMARY KEY("entity_id","key")
);
--> statement-breakpoint
CREATE TABLE "telemetry_quarter_hourly" (
	"tenant_id" uuid NOT NULL,
	"entity_id" integer NOT NULL,
	"key" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"count" bigint NOT NULL,
	"sum" double precision,
	"min" double precision,
	"max" double precision,
	"last_value" double precision,
	"last_ts" timestamp with time zone,
	CONSTRAINT "telemetry_quarter_hourly_entity_id_key_bucket_pk" PRIMARY KEY("entity_id","key","bucket")
);
--> statement-breakpoint
ALTER TABLE "entities" ALTER COLUMN "access_token" SET DEFAULT replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "telemetry_latest" ADD CONSTRAINT "telemetry_latest_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_latest" ADD CONSTRAINT "telemetry_latest_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_quarter_hourly" ADD CONSTRAINT "telemetry_quarter_hourly_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_quarter_hourly" ADD CONSTRAINT "telemetry_quarter_hourly_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telemetry_latest_tenant_idx" ON "telemetry_latest" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "entities_gateway_child_idx" ON "entities" USING btree ("fk_gateway_id","thingsboard_name");--> statement-breakpoint
-- Booleans keep 1/0 in value_num too, so that they average (a parking spot's occupancy share).
ALTER TABLE "telemetry" ADD COLUMN "value_bool" boolean;--> statement-breakpoint
ALTER TABLE "telemetry" ADD COLUMN "value_json" jsonb;--> statement-breakpoint
UPDATE "entities" SET "access_token" = replace(gen_random_uuid()::text, '-', '') WHERE "access_token" IS NULL;--> statement-breakpoint
ALTER TABLE "telemetry_latest" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry_latest" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
ALTER TABLE "telemetry_quarter_hourly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "telemetry_quarter_hourly" TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
