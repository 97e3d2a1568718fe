CREATE TABLE "device_commands" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"entity_id" integer NOT NULL,
	"method" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"response" jsonb
);
--> statement-breakpoint
ALTER TABLE "device_commands" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "lamp_states" (
	"entity_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"profile_id" integer,
	"level" integer NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"sensor_on" boolean,
	"override_level" integer,
	"override_until" timestamp with time zone,
	"override_by" uuid
);
--> statement-breakpoint
ALTER TABLE "lamp_states" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "lighting_ticks" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lighting_ticks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "profile_entities" (
	"tenant_id" uuid NOT NULL,
	"profile_id" integer NOT NULL,
	"entity_id" integer NOT NULL,
	CONSTRAINT "profile_entities_profile_id_entity_id_pk" PRIMARY KEY("profile_id","entity_id")
);
--> statement-breakpoint
ALTER TABLE "profile_entities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "profile_groups" (
	"tenant_id" uuid NOT NULL,
	"profile_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "profile_groups_profile_id_group_id_pk" PRIMARY KEY("profile_id","group_id")
);
--> statement-breakpoint
ALTER TABLE "profile_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "client_attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "shared_attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lamp_states" ADD CONSTRAINT "lamp_states_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lamp_states" ADD CONSTRAINT "lamp_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lamp_states" ADD CONSTRAINT "lamp_states_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lighting_ticks" ADD CONSTRAINT "lighting_ticks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_entities" ADD CONSTRAINT "profile_entities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_entities" ADD CONSTRAINT "profile_entities_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_entities" ADD CONSTRAINT "profile_entities_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_groups" ADD CONSTRAINT "profile_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_groups" ADD CONSTRAINT "profile_groups_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_groups" ADD CONSTRAINT "profile_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_entity_idx" ON "device_commands" USING btree ("entity_id","id");--> statement-breakpoint
CREATE INDEX "device_commands_pending_idx" ON "device_commands" USING btree ("expires_at") WHERE status IN ('queued', 'sent', 'delivered');--> statement-breakpoint
CREATE INDEX "device_commands_tenant_idx" ON "device_commands" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "lamp_states_tenant_idx" ON "lamp_states" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_entities_entity_unique" ON "profile_entities" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_groups_group_unique" ON "profile_groups" USING btree ("group_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "device_commands" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "lamp_states" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "lighting_ticks" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "profile_entities" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "profile_groups" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());