-- Several instances on one database: the live events they send each other, the instances
-- themselves (seen every few seconds) and the device connections each holds.
CREATE TABLE "device_connections" (
	"entity_id" integer NOT NULL,
	"instance_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"connections" integer NOT NULL,
	CONSTRAINT "device_connections_entity_id_instance_id_pk" PRIMARY KEY("entity_id","instance_id")
);
--> statement-breakpoint
ALTER TABLE "device_connections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "live_event_batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_event_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"origin" uuid NOT NULL,
	"events" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_connections_instance_idx" ON "device_connections" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "live_event_batches_created_at_idx" ON "live_event_batches" USING btree ("created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "device_connections" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
REVOKE ALL ON "live_event_batches" FROM terrasight_app;--> statement-breakpoint
REVOKE ALL ON "server_instances" FROM terrasight_app;